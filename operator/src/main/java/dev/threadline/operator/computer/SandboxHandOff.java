package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Optional;

/**
 * Tells the worker of this process of a run whose claimed (ready) sandbox is being recorded, so it
 * can claim the run without waiting for its watches to bring the Run and the Pod. The worker is
 * told before the write ({@link #expect}), because the write's watch event may reach it before the
 * write's answer reaches the operator: the run is then left to the hand-off and started once.
 */
@FunctionalInterface
public interface SandboxHandOff {
  SandboxHandOff NONE = run -> Pending.NOTHING;

  /**
   * The run's claimed sandbox is about to be recorded: until the returned hand-off is handed over
   * or closed, the worker leaves the run's watch events to it.
   */
  Pending expect(Run run);

  /** A hand-off announced by {@link #expect}: handed over once the write succeeded, else closed. */
  interface Pending extends AutoCloseable {
    Pending NOTHING =
        new Pending() {
          @Override
          public void handOver(Run run, Pod pod, Optional<String> credential) {}

          @Override
          public void close() {}
        };

    /**
     * @param run the Run as written, its status naming the Pod
     * @param credential the sandbox's credential, when the operator's cache holds its Secret
     */
    void handOver(Run run, Pod pod, Optional<String> credential);

    /** Without {@link #handOver} first (the write failed or was not needed): called off. */
    @Override
    void close();
  }
}
