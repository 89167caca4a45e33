package dev.threadline.operator.worker;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.core.routing.Route;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.computer.AgentOutcome;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.RunSandbox;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.usage.UnfinishedRuns;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computer Runs deleted while their loop works (the {@code threadline.dev/usage} finalizer keeps
 * them until they are counted). The sandbox Pod goes at once, which ends a tool call in flight; the
 * worker stops the loop when it sees the deletion (a model reply in flight is still recorded as a
 * {@code usage} event) and gives its claim up. Then the run ends {@code cancelled} with the usage
 * its events report, and the sandbox's credential and NetworkPolicy go. A claim that is not given
 * up (its worker died) is waited for until it expires.
 */
public final class DeletedRuns implements UnfinishedRuns {
  private static final Logger LOG = LoggerFactory.getLogger(DeletedRuns.class);
  static final String MESSAGE = "The run was deleted before it ended";
  private static final Duration MIN_WAIT = Duration.ofMillis(200);

  private final KubernetesClient client;
  private final ModelPricing pricing;
  private final Duration podGracePeriod;
  private final Clock clock;
  private final ComputerStatus statuses;

  public DeletedRuns(
      KubernetesClient client,
      ModelPricing pricing,
      Duration podGracePeriod,
      Clock clock,
      ComputerStatus statuses) {
    this.client = client;
    this.statuses = statuses;
    this.pricing = pricing;
    this.podGracePeriod = podGracePeriod;
    this.clock = clock;
  }

  @Override
  public Optional<Duration> endDeleted(Run run) {
    if (run.getStatus() == null
        || !Route.COMPUTER.value().equals(run.getStatus().getRoute())
        || RunStatusUpdates.ended(run.getStatus())) {
      return Optional.empty(); // no loop ever spent anything for it, or it has ended already
    }
    String namespace = run.getMetadata().getNamespace();
    String name = run.getMetadata().getName();
    client
        .pods()
        .inNamespace(namespace)
        .withName(AgentObjects.podName(run))
        .withGracePeriod(podGracePeriod.toSeconds())
        .delete();
    Instant now = clock.instant();
    Optional<Instant> claimed = RunClaims.liveUntil(run, now);
    if (claimed.isPresent()) {
      Duration left = Duration.between(now, claimed.get());
      return Optional.of(left.compareTo(MIN_WAIT) < 0 ? MIN_WAIT : left);
    }
    boolean ended =
        RunStatusUpdates.write(
            client,
            namespace,
            name,
            status ->
                statuses.finish(
                    run,
                    status,
                    List.of(),
                    AgentOutcome.failed(RunErrorCode.CANCELLED, MESSAGE),
                    clock.instant(),
                    pricing));
    RunSandbox.deleteAccess(client, run);
    if (ended) {
      try (ResourceLogContext logged = ResourceLogContext.of(run)) {
        LOG.info("deleted while it worked: ended cancelled");
      }
    }
    return Optional.empty();
  }
}
