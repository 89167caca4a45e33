package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ImageReferencesTest {
  @Test
  void acceptsARegistryNameTagAndDigest() {
    assertThat(
            ImageReferences.check(
                "registry.example.com:5000/team/app:1.2@sha256:" + "a".repeat(64)))
        .isEmpty();
  }

  @Test
  void refusesAHugeReferenceBeforeMatchingIt() {
    assertThat(ImageReferences.check("a-".repeat(100_000) + "!"))
        .contains("longer than " + ImageReferences.MAX_LENGTH + " characters");
  }
}
