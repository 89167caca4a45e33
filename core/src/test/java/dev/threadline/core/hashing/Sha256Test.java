package dev.threadline.core.hashing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class Sha256Test {
  @Test
  void hexIsWhatSha256sumPrintsForTheUtf8Bytes() {
    // FIPS 180-2's test vector, and a text outside ASCII (printf 'café' | sha256sum).
    assertThat(Sha256.hex("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(Sha256.hex("café"))
        .isEqualTo("850f7dc43910ff890f8879c0ed26fe697c93a067ad93a7d50f466a7028a9bf4e");
  }

  @Test
  void aDigestFedInPartsEqualsTheWholeHash() {
    var digest = Sha256.newDigest();
    digest.update("a".getBytes(StandardCharsets.UTF_8));
    digest.update("bc".getBytes(StandardCharsets.UTF_8));
    assertThat(HexFormat.of().formatHex(digest.digest())).isEqualTo(Sha256.hex("abc"));
  }
}
