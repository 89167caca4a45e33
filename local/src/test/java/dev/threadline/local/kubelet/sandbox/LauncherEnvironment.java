package dev.threadline.local.kubelet.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** The launcher's (this JVM's) environment as canaries: none of it may show inside a sandbox. */
public final class LauncherEnvironment {
  private LauncherEnvironment() {}

  /** Fails when {@code seen} holds any {@code NAME=value} of the launcher's environment. */
  public static void assertNoneIn(String seen) {
    System.getenv().entrySet().stream()
        .filter(variable -> variable.getValue().length() >= 6)
        // The kubelet gives every Pod a PATH and LANG=C.UTF-8 of its own.
        .filter(variable -> !List.of("PATH", "LANG").contains(variable.getKey()))
        .forEach(variable ->
            assertThat(seen)
                .as("the launcher's variable %s", variable.getKey())
                .doesNotContain(variable.getKey() + "=" + variable.getValue()));
  }
}
