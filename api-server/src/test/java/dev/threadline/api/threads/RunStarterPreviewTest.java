package dev.threadline.api.threads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.RunSpec;
import org.junit.jupiter.api.Test;

/** The part of a long message a Run carries. */
class RunStarterPreviewTest {
  @Test
  void keepsTheFirstInlineCharactersAndNeverHalfASurrogatePair() {
    String plain = "a".repeat(RunSpec.INLINE_MESSAGE + 10);
    assertThat(RunStarter.preview(plain)).isEqualTo("a".repeat(RunSpec.INLINE_MESSAGE));

    // An emoji (two chars) straddling the cut is left out whole.
    String straddling = "a".repeat(RunSpec.INLINE_MESSAGE - 1) + "😀" + "tail";
    assertThat(RunStarter.preview(straddling)).isEqualTo("a".repeat(RunSpec.INLINE_MESSAGE - 1));
  }
}
