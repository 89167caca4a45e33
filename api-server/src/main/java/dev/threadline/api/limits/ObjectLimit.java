package dev.threadline.api.limits;

/**
 * How many objects of one kind a user may hold, so that one tenant cannot fill the cluster's store
 * or the informer caches of the API server and the operator.
 *
 * @param kind what is counted, as the message and the setting name it ("threads")
 * @param max the most a user may hold
 */
public record ObjectLimit(String kind, int max) {
  public ObjectLimit {
    if (max < 1) {
      throw new IllegalArgumentException("the limit of " + kind + " must be at least 1: " + max);
    }
  }

  /** Refuses one more when the user already holds {@code current}. */
  public void checkRoom(int current) {
    if (current >= max) {
      throw new LimitExceededException(
          "Limit exceeded: a user may hold at most "
              + max
              + " "
              + kind
              + "; delete some before creating more");
    }
  }
}
