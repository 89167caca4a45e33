package dev.threadline.operator.kubernetes;

import dev.threadline.core.kubernetes.EventObjects;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes Events about Threadline's objects, for a person debugging with {@code kubectl
 * describe} and {@code kubectl get events}: what the operator did or decided that a status alone
 * does not tell (a build started or ended, a run's route, its sandbox, its end, a schedule fired or
 * skipped, a pool refilled). The operator's one recorder: every controller records through the same
 * instance. Callers record an Event when the thing happens, not on every reconcile; repeats are
 * correlated as client-go's recorder does ({@link EventCorrelator}): the same Event again bumps its
 * {@code count} and {@code lastTimestamp}, a flood of similar ones is combined, and each object has
 * a budget. An Event is a courtesy: one the API refuses is logged and forgotten, never a reason to
 * fail a reconcile. Messages are bounded ({@value EventObjects#MAX_MESSAGE} characters) and must
 * never hold conversation content or secrets.
 *
 * <p>The operator's recorder writes in the background, as client-go's broadcaster does ({@link
 * #inBackground}): a reconcile decides an Event (correlation, budget) and goes on, never waiting
 * for the API's round trip; Events are written one at a time in the order they were decided, and a
 * backlog over {@value #BACKLOG} is dropped (logged), as client-go drops when its queue is full.
 */
public final class KubernetesEvents {
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesEvents.class);
  static final String COMPONENT = "threadline-operator";

  /** Events decided but not yet written, at most (client-go's queue holds 1000 too). */
  static final int BACKLOG = 1000;

  private final Clock clock;
  private final Executor writes;
  private final EventCorrelator correlator = new EventCorrelator();

  /**
   * Drops an Event the writer cannot take, logging the first drop and then every {@value
   * #BACKLOG}th (a line each would flood the log just when the API is slow). A later repeat of a
   * dropped Event is created again: its bump finds no Event and creates one.
   */
  private static final class DropLogged implements RejectedExecutionHandler {
    private final AtomicLong dropped = new AtomicLong();

    @Override
    public void rejectedExecution(Runnable write, ThreadPoolExecutor writer) {
      long count = dropped.incrementAndGet();
      if (count % BACKLOG == 1) {
        LOG.warn(
            "{} Event(s) dropped so far: {} are waiting to be written (the API is slow)",
            count,
            BACKLOG);
      }
    }
  }

  /** A recorder that writes each Event before it returns. */
  public KubernetesEvents(Clock clock) {
    this(clock, Runnable::run);
  }

  private KubernetesEvents(Clock clock, Executor writes) {
    this.clock = clock;
    this.writes = writes;
  }

  /**
   * A recorder whose writes run on a thread of their own, in order, so that no reconcile waits for
   * an Event (on the direct path two of them sat between the route and the answer).
   */
  public static KubernetesEvents inBackground(Clock clock) {
    ThreadPoolExecutor writer =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(BACKLOG),
            Thread.ofVirtual().name("kubernetes-events").factory(),
            new DropLogged());
    return new KubernetesEvents(clock, writer);
  }

  /** Something the user should know went as intended. */
  public void normal(KubernetesClient client, HasMetadata about, String reason, String message) {
    record(client, about, EventObjects.NORMAL, reason, message);
  }

  /** Something that went wrong, or waits, and why. */
  public void warning(KubernetesClient client, HasMetadata about, String reason, String message) {
    record(client, about, EventObjects.WARNING, reason, message);
  }

  private void record(
      KubernetesClient client, HasMetadata about, String type, String reason, String message) {
    Instant now = clock.instant();
    String namespace = about.getMetadata().getNamespace();
    EventCorrelator.Subject subject =
        new EventCorrelator.Subject(
            namespace,
            about.getKind(),
            about.getMetadata().getName(),
            about.getMetadata().getUid());
    EventCorrelator.Decision decision;
    synchronized (correlator) {
      decision =
          correlator.observe(
              subject,
              type,
              reason,
              EventObjects.bounded(message),
              now,
              () -> EventObjects.newName(about, now));
    }
    if (decision == null) {
      LOG.debug("Event {} about {} dropped: the object's budget is spent", reason, subject);
      return;
    }
    Event event = event(about, type, reason, decision, now);
    writes.execute(() -> write(client, namespace, about, reason, decision, event, now));
  }

  private void write(
      KubernetesClient client,
      String namespace,
      HasMetadata about,
      String reason,
      EventCorrelator.Decision decision,
      Event event,
      Instant now) {
    try {
      if (decision.isNew() || !bump(client, namespace, decision, now)) {
        client.v1().events().inNamespace(namespace).resource(event).create();
      }
    } catch (KubernetesClientException e) {
      synchronized (correlator) {
        correlator.forget(decision.name());
      }
      LOG.warn(
          "Event {} about {}({}/{}) not recorded: {}",
          reason,
          about.getKind(),
          namespace,
          about.getMetadata().getName(),
          e.getMessage());
    }
  }

  /** Bumps a recorded Event's count; false when the API no longer has it. */
  private static boolean bump(
      KubernetesClient client, String namespace, EventCorrelator.Decision decision, Instant now) {
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("count", decision.count());
    patch.put("message", decision.message());
    patch.put("lastTimestamp", EventObjects.time(now));
    try {
      client
          .v1()
          .events()
          .inNamespace(namespace)
          .withName(decision.name())
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              client.getKubernetesSerialization().asJson(patch));
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw e;
    }
  }

  private static Event event(
      HasMetadata about,
      String type,
      String reason,
      EventCorrelator.Decision decision,
      Instant now) {
    return EventObjects.event(
        about,
        type,
        reason,
        decision.message(),
        decision.name(),
        decision.count(),
        decision.firstSeen(),
        now,
        COMPONENT);
  }
}
