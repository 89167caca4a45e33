package dev.threadline.operator.webhooks;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.kubernetes.StatusFieldPatch;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queues the webhooks of every finished Run, once: a WebhookDelivery per endpoint of the run's
 * Agent, Environment and Schedule that wants the event, then {@code status.webhooksQueued} on the
 * Run. Creation is idempotent (deliveries are named after their message id), so an operator stopped
 * between the two writes queues nothing twice. Runs that ended more than a day ago are only marked.
 *
 * <p>Its own controller, so that it sees status changes (the run controller reacts to spec changes
 * only).
 */
@ControllerConfiguration(name = "run-webhooks", generationAwareEventProcessing = false)
public class RunWebhooks implements Reconciler<Run> {
  private static final Logger LOG = LoggerFactory.getLogger(RunWebhooks.class);

  private final KubernetesClient client;
  private final WebhookDeliveries deliveries;
  private final Clock clock;

  public RunWebhooks(KubernetesClient client, Clock clock) {
    this.client = client;
    this.deliveries = new WebhookDeliveries(client);
    this.clock = clock;
  }

  @Override
  public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
    Optional<WebhookEvent> event = WebhookEvents.ofRun(RunPhase.of(run));
    if (event.isEmpty()
        || Boolean.TRUE.equals(run.getStatus().getWebhooksQueued())
        || run.getSpec() == null) {
      return UpdateControl.noUpdate();
    }
    String namespace = run.getMetadata().getNamespace();
    Optional<Instant> completedAt = Timestamps.parse(run.getStatus().getCompletedAt());
    Instant now = clock.instant();
    if (WebhookEvents.isTooOld(completedAt, now)) {
      LOG.debug("Run ended {}: too long ago to announce", run.getStatus().getCompletedAt());
    } else {
      // The environment the run uses (named on it or its thread, else the default), as the computer
      // path does.
      Environment environment =
          AgentEnvironment.resourceOf(
                  client, run, find(ConversationThread.class, namespace, run.getSpec().getThread()))
              .orElse(null);
      List<WebhookRecipient> recipients =
          WebhookEvents.runRecipients(
              event.get(),
              find(Agent.class, namespace, run.getSpec().getAgent()),
              environment,
              find(Schedule.class, namespace, run.getSpec().getSchedule()));
      Instant at = completedAt.orElse(now);
      deliveries.create(
          WebhookDeliveries.plan(
              run,
              event.get(),
              run.getMetadata().getUid(),
              at,
              WebhookEvents.runData(
                  run, environment == null ? null : environment.getMetadata().getName(), at),
              recipients));
    }
    markQueued(run);
    return UpdateControl.noUpdate();
  }

  private <T extends HasMetadata> T find(Class<T> type, String namespace, String name) {
    return name == null || name.isBlank()
        ? null
        : client.resources(type).inNamespace(namespace).withName(name).get();
  }

  /** One status field (see {@link StatusFieldPatch}): the other Run controllers keep it. */
  private void markQueued(Run run) {
    StatusFieldPatch.patch(client, run, "webhooksQueued", true);
  }
}
