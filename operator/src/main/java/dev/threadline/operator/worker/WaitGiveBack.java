package dev.threadline.operator.worker;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunWait;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a waiting run's sandbox back: after {@code THREADLINE_WORKER_INPUT_RELEASE_SECONDS} of a
 * wait, or sooner when the sandbox's own deadline would end it first (so a run that waits for a
 * person is not killed by its work deadline). The workspace is kept first (in the store, or on the
 * thread's workspace claim); then {@code status.waitingFor.sandboxGivenBack} says so, the run's
 * loop ends without an outcome, and the computer path takes the Pod away and, once the call is
 * answered, takes a sandbox again (docs/approvals.md).
 */
final class WaitGiveBack implements InputWaits.GiveBack {
  private static final Logger LOG = LoggerFactory.getLogger(WaitGiveBack.class);

  /** How long before the sandbox's deadline a wait gives it back, to keep the workspace first. */
  static final Duration BEFORE_DEADLINE = Duration.ofSeconds(30);

  private final RunWork.Parts parts;
  private final Run run;
  private final Supplier<SandboxAddress> sandbox;

  /**
   * @param sandbox the sandbox the run works in now (null before it reached one)
   */
  WaitGiveBack(RunWork.Parts parts, Run run, Supplier<SandboxAddress> sandbox) {
    this.parts = parts;
    this.run = run;
    this.sandbox = sandbox;
  }

  @Override
  public Instant due(Instant since) {
    Instant due = since.plus(parts.inputRelease());
    Optional<Instant> beforeDeadline =
        SandboxDeadline.of(parts.client(), run).map(d -> d.ends().minus(BEFORE_DEADLINE));
    return beforeDeadline.filter(due::isAfter).map(early -> latest(early, since)).orElse(due);
  }

  @Override
  public boolean giveBack(String callId) {
    SandboxAddress address = sandbox.get();
    if (address == null) {
      return false;
    }
    try {
      if (!parts.sandboxes().keepForGiveBack(run, address)) {
        LOG.info("keeps its sandbox through the wait: its workspace cannot be kept without it");
        return false;
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "keeps its sandbox through the wait: the workspace was not kept: {}", e.getMessage());
      return false;
    }
    String now = Timestamps.format(parts.clock().instant());
    boolean written =
        RunStatusUpdates.write(
            parts.client(),
            run.getMetadata().getNamespace(),
            run.getMetadata().getName(),
            status -> {
              RunWait wait = status.getWaitingFor();
              if (RunStatusUpdates.ended(status)
                  || wait == null
                  || !callId.equals(wait.getCallId())
                  || wait.getSandboxGivenBack() != null) {
                return false;
              }
              wait.setSandboxGivenBack(now);
              return true;
            });
    if (written) {
      LOG.info("gives its sandbox back while call {} waits: the workspace is kept", callId);
    }
    return written;
  }

  private static Instant latest(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
