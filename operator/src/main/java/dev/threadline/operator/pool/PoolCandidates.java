package dev.threadline.operator.pool;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/** The pool Pods a claim may try, as a cache last saw them (the claim checks their version). */
@FunctionalInterface
public interface PoolCandidates {
  /** An environment's unclaimed, ready pool Pods of {@code image}, oldest first. */
  List<Pod> claimable(String namespace, String environment, String image);

  /**
   * Whether the namespace may have a claimable pool Pod at all (a cheap look before the run's
   * environment is read); true when unknown.
   */
  default boolean anyReady(String namespace) {
    return true;
  }
}
