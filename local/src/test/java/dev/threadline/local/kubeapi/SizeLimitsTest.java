package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class SizeLimitsTest {
  @Test
  void base64LengthsAreCountedAsDecodedWithOrWithoutPadding() {
    for (int bytes = 0; bytes < 12; bytes++) {
      byte[] data = new byte[bytes];
      assertThat(SizeLimits.base64DecodedLength(Base64.getEncoder().encodeToString(data)))
          .as("padded, %d bytes", bytes)
          .isEqualTo(bytes);
      assertThat(
              SizeLimits.base64DecodedLength(
                  Base64.getEncoder().withoutPadding().encodeToString(data)))
          .as("unpadded, %d bytes", bytes)
          .isEqualTo(bytes);
    }
  }
}
