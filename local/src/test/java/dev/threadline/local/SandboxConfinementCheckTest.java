package dev.threadline.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxConfinementCheckTest {
  @TempDir Path empty;

  @Test
  void withoutBubblewrapOneUserRunsUnconfined() {
    assertThat(SandboxConfinementCheck.check(Map.of("PATH", empty.toString()), 1).available())
        .isFalse();
  }

  @Test
  void withoutBubblewrapSeveralUsersAreRefusedUnlessAccepted() {
    Map<String, String> noBwrap = Map.of("PATH", empty.toString());
    assertThatThrownBy(() -> SandboxConfinementCheck.check(noBwrap, 2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bubblewrap")
        .hasMessageContaining("THREADLINE_ALLOW_UNCONFINED=true");

    Map<String, String> accepted =
        Map.of("PATH", empty.toString(), "THREADLINE_ALLOW_UNCONFINED", "true");
    assertThat(SandboxConfinementCheck.check(accepted, 2).available()).isFalse();
  }

  @Test
  void bubblewrapOnThePathConfinesEveryone() throws Exception {
    Path bwrap = fakeBubblewrap(0);

    var confinement = SandboxConfinementCheck.check(Map.of("PATH", empty.toString()), 3);

    assertThat(confinement.bwrap()).isEqualTo(bwrap);
    assertThat(confinement.runtimeFiles()).contains(Path.of(System.getProperty("java.home")));
  }

  @Test
  void bubblewrapThatCannotRunCountsAsMissing() throws Exception {
    fakeBubblewrap(1); // as where user namespaces are disabled

    assertThat(SandboxConfinementCheck.check(Map.of("PATH", empty.toString()), 1).available())
        .isFalse();
    assertThatThrownBy(() -> SandboxConfinementCheck.check(Map.of("PATH", empty.toString()), 2))
        .hasMessageContaining("cannot run");
  }

  private Path fakeBubblewrap(int exitCode) throws Exception {
    Path bwrap = Files.writeString(empty.resolve("bwrap"), "#!/bin/sh\nexit " + exitCode + "\n");
    bwrap.toFile().setExecutable(true);
    return bwrap;
  }
}
