package dev.threadline.core.approvals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GlobTest {

  @Test
  void matchesTheWholeText() {
    assertThat(Glob.of("git push*").matches("git push origin main")).isTrue();
    assertThat(Glob.of("git push*").matches("git push")).isTrue();
    assertThat(Glob.of("git push*").matches("cd x && git push")).isFalse();
    assertThat(Glob.of("*sudo*").matches("echo hi; sudo rm x")).isTrue();
    assertThat(Glob.of("*sudo*").matches("sudo")).isTrue();
    assertThat(Glob.of("*sudo*").matches("visudo")).isTrue();
    assertThat(Glob.of("*sudo*").matches("su do")).isFalse();
    assertThat(Glob.of("write_file").matches("write_file")).isTrue();
    assertThat(Glob.of("write_file").matches("write_files")).isFalse();
    assertThat(Glob.of("mcp__github__*").matches("mcp__github__create_issue")).isTrue();
    assertThat(Glob.of("mcp__github__*").matches("mcp__gitlab__create_issue")).isFalse();
    assertThat(Glob.of("*").matches("")).isTrue();
    assertThat(Glob.of("").matches("")).isTrue();
    assertThat(Glob.of("").matches("x")).isFalse();
  }

  @Test
  void piecesAreFoundInOrderWithoutOverlap() {
    assertThat(Glob.of("a*b*c").matches("abc")).isTrue();
    assertThat(Glob.of("a*b*c").matches("acb")).isFalse();
    assertThat(Glob.of("ab*ba").matches("aba")).isFalse(); // prefix and suffix may not overlap
    assertThat(Glob.of("ab*ba").matches("abba")).isTrue();
    assertThat(Glob.of("*aab*").matches("aaab")).isTrue(); // the KMP fallback finds it
    assertThat(Glob.of("rm -rf*").matches("rm -rf /")).isTrue();
    assertThat(Glob.of("**x**").matches("yxy")).isTrue();
  }

  @Test
  void theWorkIsLinearInTheTextForPatternsThatBlowUpBacktrackers() {
    String text = "a".repeat(200_000);
    for (String pattern :
        new String[] {"*a*a*a*a*a*a*a*a*a*a*b", "*aaaaaaaaaaaaaaaaaaab*", "a*a*a*a*a*ab"}) {
      Glob.Work work = new Glob.Work();
      assertThat(Glob.of(pattern).matches(text, work)).isFalse();
      // each text character is compared a bounded number of times (KMP: at most twice per piece
      // pass), so the work stays within a small multiple of text plus pattern
      assertThat(work.comparisons).isLessThan(4L * (text.length() + pattern.length()));
    }
    Glob.Work work = new Glob.Work();
    assertThat(Glob.of("*sudo*").matches(text + "sudo", work)).isTrue();
    assertThat(work.comparisons).isLessThan(4L * text.length());
  }
}
