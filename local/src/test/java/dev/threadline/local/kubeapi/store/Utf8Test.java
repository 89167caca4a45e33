package dev.threadline.local.kubeapi.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Utf8Test {
  @Test
  void countsWhatTheEncoderWrites() {
    for (String text : new String[] {"", "ascii", "é", "€", "😀", "a😀é€z", "\u07ff\u0800"}) {
      assertThat(Utf8.length(text))
          .as(text)
          .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void aLoneSurrogateCountsAsTheOneByteTheEncoderReplacesItWith() {
    String lone = "a\ud83d" + "b";
    assertThat(Utf8.length(lone)).isEqualTo(lone.getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void longerThanIsExactAtTheBoundary() {
    String twoByte = "é".repeat(500);
    assertThat(Utf8.longerThan(twoByte, 1000)).isFalse();
    assertThat(Utf8.longerThan(twoByte + "x", 1000)).isTrue();
    assertThat(Utf8.longerThan("x".repeat(1001), 1000)).isTrue();
    assertThat(Utf8.longerThan("x".repeat(333), 1000)).isFalse();
  }
}
