package dev.threadline.operator.computer;

/**
 * Follows one container's log from its first line. The seam between the operator and the cluster's
 * log endpoint, so that tests can play the runner's output without HTTP.
 */
public interface PodLogFollower {

  /**
   * Starts following and returns at once; {@code listener} hears every line in order, from one
   * thread at a time, then {@link Listener#ended} exactly once (unless closed first).
   */
  Following follow(String namespace, String pod, String container, Listener listener);

  interface Listener {
    void line(String line);

    /** The log ended: the container stopped ({@code error} null) or the stream broke. */
    void ended(Exception error);
  }

  /** Stops following; no call reaches the listener afterwards. */
  interface Following extends AutoCloseable {
    @Override
    void close();
  }
}
