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
import dev.threadline.operator.kubernetes.InformerLists;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queues the webhooks of every finished Run, once: a WebhookDelivery per endpoint of the run's
 * Agent, Environment and Schedule that wants the event, then {@code status.webhooksQueued} on the
 * Run. Creation is idempotent (deliveries are named after their message id), so an operator stopped
 * between the two writes queues nothing twice. Runs that ended more than a day ago are only marked.
 *
 * <p>The webhooks half of the finished run's bookkeeping ({@code run/RunBookkeeping}, whose
 * reconciles call it and which writes the mark with the usage's in one status write). Agents,
 * Environments and Schedules come from informers ({@link #eventSources}; one not cached yet is read
 * from the API); the run's Thread is read only when its environment can matter (see {@link
 * #environmentOf}).
 */
public class RunWebhooks {
  private static final Logger LOG = LoggerFactory.getLogger(RunWebhooks.class);

  private final KubernetesClient client;
  private final WebhookDeliveries deliveries;
  private final Clock clock;

  public RunWebhooks(KubernetesClient client, Clock clock) {
    this.client = client;
    this.deliveries = new WebhookDeliveries(client);
    this.clock = clock;
  }

  /**
   * Caches of the kinds that configure webhooks. Their changes reconcile no Run: a run is announced
   * to the endpoints configured when it finishes.
   */
  public static List<EventSource<?, Run>> eventSources(EventSourceContext<Run> context) {
    return List.of(
        configuring(Agent.class, context),
        configuring(Environment.class, context),
        configuring(Schedule.class, context));
  }

  private static <T extends HasMetadata> EventSource<?, Run> configuring(
      Class<T> type, EventSourceContext<Run> context) {
    return new InformerEventSource<>(
        InformerEventSourceConfiguration.from(type, Run.class)
            .withSecondaryToPrimaryMapper(resource -> Set.of())
            .withNamespacesInheritedFromController()
            .withInformerListLimit(InformerLists.PAGE)
            .build(),
        context);
  }

  /**
   * Queues the webhooks of a finished Run not marked yet.
   *
   * @return whether {@code status.webhooksQueued} is to be written now (they are queued, or the run
   *     is too old to announce)
   */
  public boolean queue(Run run, Context<Run> context) {
    Optional<WebhookEvent> event = WebhookEvents.ofRun(RunPhase.of(run));
    if (event.isEmpty() || isQueued(run) || run.getSpec() == null) {
      return false;
    }
    String namespace = run.getMetadata().getNamespace();
    Optional<Instant> completedAt = Timestamps.parse(run.getStatus().getCompletedAt());
    Instant now = clock.instant();
    if (WebhookEvents.isTooOld(completedAt, now)) {
      LOG.debug("Run ended {}: too long ago to announce", run.getStatus().getCompletedAt());
    } else {
      Agent agent = cached(context, Agent.class, namespace, run.getSpec().getAgent());
      Schedule schedule = cached(context, Schedule.class, namespace, run.getSpec().getSchedule());
      boolean othersReceive =
          !WebhookEvents.runRecipients(event.get(), agent, null, schedule).isEmpty();
      Environment environment = environmentOf(run, event.get(), othersReceive, context);
      List<WebhookRecipient> recipients =
          WebhookEvents.runRecipients(event.get(), agent, environment, schedule);
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
    return true;
  }

  /**
   * The environment the run uses, as the computer path resolves it ({@link AgentEnvironment}): the
   * one it names, else its thread's, else the namespace's default. When the run names none, its
   * Thread is read only if the answer can matter: an environment of the namespace has an endpoint
   * for the event, or another recipient gets a message that names the environment. Otherwise null
   * (nobody is told, so nothing is read).
   */
  private Environment environmentOf(
      Run run, WebhookEvent event, boolean othersReceive, Context<Run> context) {
    String namespace = run.getMetadata().getNamespace();
    InformerEventSource<Environment, Run> environments = source(context, Environment.class);
    String named = AgentEnvironment.nameOf(run, null);
    if (named == null) {
      boolean anyWants =
          environments
              .list(
                  namespace,
                  environment ->
                      !WebhookEvents.runRecipients(event, null, environment, null).isEmpty())
              .findAny()
              .isPresent();
      if (!othersReceive && !anyWants) {
        return null;
      }
      named =
          AgentEnvironment.nameOf(
              run, read(ConversationThread.class, namespace, run.getSpec().getThread()));
    }
    if (named != null) {
      return cached(context, Environment.class, namespace, named);
    }
    return environments.list(namespace, AgentEnvironment::isActiveDefault).findFirst().orElse(null);
  }

  /** From the informer; one created a moment ago, not cached yet, from the API. */
  private <T extends HasMetadata> T cached(
      Context<Run> context, Class<T> type, String namespace, String name) {
    if (name == null || name.isBlank()) {
      return null;
    }
    return source(context, type)
        .get(new ResourceID(name, namespace))
        .orElseGet(() -> read(type, namespace, name));
  }

  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> InformerEventSource<T, Run> source(
      Context<Run> context, Class<T> type) {
    return (InformerEventSource<T, Run>) context.eventSourceRetriever().getEventSourceFor(type);
  }

  private <T extends HasMetadata> T read(Class<T> type, String namespace, String name) {
    return name == null || name.isBlank()
        ? null
        : client.resources(type).inNamespace(namespace).withName(name).get();
  }

  /** Whether the Run says its webhooks are queued. */
  public static boolean isQueued(Run run) {
    return run.getStatus() != null && Boolean.TRUE.equals(run.getStatus().getWebhooksQueued());
  }
}
