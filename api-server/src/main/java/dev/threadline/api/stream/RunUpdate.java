package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;

/**
 * What happened to a followed run: a new version of it, its deletion, the server shutting down, or
 * (a wake) its live deltas arrived; {@code run} is null but for a new version or a deletion.
 */
public record RunUpdate(Kind kind, Run run) {
  public enum Kind {
    CHANGED,
    DELETED,
    SHUTDOWN,
    WAKE
  }

  static RunUpdate changed(Run run) {
    return new RunUpdate(Kind.CHANGED, run);
  }

  static RunUpdate deleted(Run run) {
    return new RunUpdate(Kind.DELETED, run);
  }

  static RunUpdate wake() {
    return new RunUpdate(Kind.WAKE, null);
  }

  static RunUpdate shutdown() {
    return new RunUpdate(Kind.SHUTDOWN, null);
  }
}
