package dev.threadline.local;

import dev.threadline.local.kubelet.sandbox.Confinement;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local mode's start-up check of the sandbox: agent code runs under bubblewrap when it is
 * installed. Without it, agent code is a host process with the launcher's rights — acceptable for
 * one person on their own machine, not for several users, unless {@value
 * Confinement#ALLOW_UNCONFINED}{@code =true} says so explicitly.
 */
final class SandboxConfinementCheck {
  private static final Logger LOG = LoggerFactory.getLogger(SandboxConfinementCheck.class);

  private SandboxConfinementCheck() {}

  /**
   * The confinement to run with.
   *
   * @throws IllegalStateException when bubblewrap is missing, there is more than one user, and
   *     running unconfined was not accepted
   */
  static Confinement check(Map<String, String> env, int users) {
    Confinement confinement = Confinement.detect(env);
    if (confinement.available()) {
      Optional<String> failure = confinement.trial();
      if (failure.isEmpty()) {
        LOG.info("Sandboxes run under bubblewrap ({})", confinement.bwrap());
        return confinement;
      }
      LOG.error("bubblewrap is installed but cannot run here: {}", failure.get());
      confinement = Confinement.none();
    }
    boolean accepted = "true".equalsIgnoreCase(env.get(Confinement.ALLOW_UNCONFINED));
    if (users > 1 && !accepted) {
      throw new IllegalStateException(
          "bubblewrap (bwrap) is not installed or cannot run, so agent code would run unconfined"
              + " with this process's rights, and "
              + users
              + " users are configured: install the bubblewrap package, or set "
              + Confinement.ALLOW_UNCONFINED
              + "=true to accept that every user's agent can read the others' work");
    }
    LOG.warn(
        "bubblewrap (bwrap) is not installed or cannot run: agent code runs UNCONFINED as host"
            + " processes with this process's rights. Install the bubblewrap package to confine"
            + " it.");
    return confinement;
  }
}
