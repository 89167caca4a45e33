package dev.threadline.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiKeysTest {
  @Test
  void newKeysArePrefixedBase62AndDistinct() {
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      String key = ApiKeys.newKey();
      assertThat(key).matches("tl_[0-9A-Za-z]{40}");
      keys.add(key);
    }
    assertThat(keys).hasSize(100);
  }

  @Test
  void secretHoldsUserAndHashButNeverTheKey() {
    String key = ApiKeys.newKey();
    Instant expiry = Instant.parse("2030-01-02T03:04:05Z");

    Secret secret = ApiKeys.keySecret("threadline-system", "alice", key, expiry);

    assertThat(secret.getMetadata().getNamespace()).isEqualTo("threadline-system");
    assertThat(secret.getMetadata().getName())
        .isEqualTo("api-key-" + Sha256.hex(key).substring(0, 16));
    assertThat(secret.getMetadata().getLabels()).containsEntry(Labels.API_KEY, "true");
    assertThat(secret.getData()).containsOnlyKeys("user", "sha256", "expiresAt");
    assertThat(decode(secret, "user")).isEqualTo("alice");
    assertThat(decode(secret, "sha256")).isEqualTo(Sha256.hex(key));
    assertThat(decode(secret, "expiresAt")).isEqualTo("2030-01-02T03:04:05Z");
    assertThat(secret.toString()).doesNotContain(key);
    assertThat(ApiKeys.keySecret("ns", "alice", key).getData()).doesNotContainKey("expiresAt");
  }

  private static String decode(Secret secret, String field) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get(field)), StandardCharsets.UTF_8);
  }
}
