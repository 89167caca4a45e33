package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Optional;

/**
 * Tells the worker of this process of a run whose claimed (ready) sandbox was just recorded, so it
 * can claim the run without waiting for its watches to bring the Run and the Pod.
 */
@FunctionalInterface
public interface SandboxHandOff {
  SandboxHandOff NONE = (run, pod, credential) -> {};

  /**
   * @param run the Run as written, its status naming the Pod
   * @param credential the sandbox's credential, when the operator's cache holds its Secret
   */
  void handOff(Run run, Pod pod, Optional<String> credential);
}
