package dev.threadline.operator.computer;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/**
 * The lock-down every Pod that runs the runner gets (agent runs and containers alike): an
 * unprivileged user, the runtime's default seccomp profile, a read-only root file system, no
 * privilege escalation and no capabilities. Writable places are the volumes the Pod mounts.
 */
public final class PodSecurity {
  /** The runner's user and group. */
  public static final long USER = 10001L;

  private PodSecurity() {}

  public static PodSecurityContext pod() {
    return new PodSecurityContextBuilder()
        .withRunAsNonRoot(true)
        .withRunAsUser(USER)
        .withRunAsGroup(USER)
        // Makes the workspace claim writable by the runner's user.
        .withFsGroup(USER)
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .build();
  }

  public static SecurityContext container() {
    return new SecurityContextBuilder()
        .withRunAsNonRoot(true)
        .withReadOnlyRootFilesystem(true)
        .withAllowPrivilegeEscalation(false)
        .withNewCapabilities()
        .withDrop("ALL")
        .endCapabilities()
        .build();
  }
}
