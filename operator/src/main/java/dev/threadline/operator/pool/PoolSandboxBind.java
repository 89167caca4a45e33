package dev.threadline.operator.pool;

import dev.threadline.operator.sandbox.SandboxPod;
import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.operator.worker.SandboxClient;
import dev.threadline.operator.worker.SandboxException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Binds a claimed pool sandbox to its new owner's credential, with the environment's variables and
 * secrets ({@link PoolBinding}). The worker binds a run's sandbox itself (side by side with the
 * run's other reads); a container's, which has no worker, is bound by the operator through this.
 */
@FunctionalInterface
public interface PoolSandboxBind {
  /**
   * @param pod the claimed pool Pod, running and ready
   * @param credential the credential the sandbox accepts from now on
   */
  void bind(Pod pod, String credential);

  /**
   * Over the sandbox API: proves the sandbox holds the pool's credential before anything is sent,
   * then binds; a sandbox that refuses the pool credential must prove the new one (bound already,
   * by an operator that stopped before it recorded the claim).
   */
  static PoolSandboxBind over(KubernetesClient client, SandboxClient sandboxes) {
    PoolBinding binding = new PoolBinding(client);
    return (pod, credential) -> {
      String host = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
      int port =
          SandboxPod.port(pod)
              .orElseThrow(() -> new SandboxException("the pool Pod names no port"));
      if (host == null) {
        throw new SandboxException("the pool Pod " + pod.getMetadata().getName() + " has no IP");
      }
      String pool =
          binding
              .poolCredential(pod)
              .orElseThrow(() -> new SandboxException("the pool's credential is gone"));
      SandboxAddress unbound = SandboxAddress.of(host, port, pool);
      SandboxAddress bound = SandboxAddress.of(host, port, credential);
      try {
        sandboxes.verify(unbound);
      } catch (SandboxException alreadyBound) {
        sandboxes.verify(bound);
        return;
      }
      if (!sandboxes.bind(unbound, credential, binding.environmentValues(pod))) {
        sandboxes.verify(bound);
      }
    };
  }
}
