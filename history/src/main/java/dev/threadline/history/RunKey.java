package dev.threadline.history;

import java.util.Objects;

/**
 * Which run a row belongs to: its namespace (the user), its thread's and its own Kubernetes name.
 * The thread travels with every row so that a thread's history goes in one statement per table.
 */
public record RunKey(String namespace, String thread, String run) {
  public RunKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(run, "run");
  }
}
