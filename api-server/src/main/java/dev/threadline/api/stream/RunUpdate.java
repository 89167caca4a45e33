package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;

/**
 * What happened to a followed run: a new version of it, its deletion, or the server shutting down
 * (then {@code run} is null).
 */
public record RunUpdate(Kind kind, Run run) {
  public enum Kind {
    CHANGED,
    DELETED,
    SHUTDOWN
  }

  static RunUpdate changed(Run run) {
    return new RunUpdate(Kind.CHANGED, run);
  }

  static RunUpdate deleted(Run run) {
    return new RunUpdate(Kind.DELETED, run);
  }

  static RunUpdate shutdown() {
    return new RunUpdate(Kind.SHUTDOWN, null);
  }
}
