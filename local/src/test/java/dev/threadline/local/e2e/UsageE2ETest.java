package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static dev.threadline.local.e2e.LocalModeFixture.BOB_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.usage.UsagePlans;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Usage through the whole local mode: the operator counts a finished run in the user's monthly
 * ledger, {@code GET /v1/usage} shows it, and once the user's allowance is lowered to what was
 * spent the next execution is refused with the contract's 402 — other users are not affected.
 */
class UsageE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void aFinishedRunIsCountedAndASpentAllowanceRefusesTheNextExecution() throws Exception {
    var done =
        fixture.post(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"stream\":false}");
    assertThat(done.statusCode()).isEqualTo(201);

    JsonNode usage =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> JSON.readTree(fixture.get(ALICE_KEY, "/v1/usage").body()),
                body -> body.path("runs").asLong() == 1);
    assertThat(usage.path("userId").asText()).isEqualTo("alice");
    assertThat(usage.path("tier").asText()).isEqualTo("free");
    assertThat(usage.path("inputTokens").asLong()).isPositive();
    assertThat(usage.path("allowance").asDouble()).isEqualTo(10.0);

    fixture
        .local()
        .client()
        .namespaces()
        .withName(fixture.local().namespaces().get("alice"))
        .edit(namespace -> {
          namespace.getMetadata().getAnnotations().put(UsagePlans.ALLOWANCE_ANNOTATION, "0");
          return namespace;
        });
    var refused =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> fixture.post(ALICE_KEY, "/v1/threads", "{\"task\":\"hello again\"}"),
                response -> response.statusCode() == 402);
    JsonNode body = JSON.readTree(refused.body());
    assertThat(body.path("error").asText()).isEqualTo("Payment Required");
    assertThat(body.path("message").asText()).isEqualTo("monthly usage allowance exhausted");
    assertThat(body.path("usage").path("tier").asText()).isEqualTo("free");
    assertThat(body.path("usage").path("allowance").asDouble()).isZero();
    assertThat(body.path("usage").has("used")).isTrue();
    assertThat(body.size()).isEqualTo(3);

    assertThat(
            fixture
                .post(BOB_KEY, "/v1/threads", "{\"task\":\"hello\",\"stream\":false}")
                .statusCode())
        .isEqualTo(201);
  }
}
