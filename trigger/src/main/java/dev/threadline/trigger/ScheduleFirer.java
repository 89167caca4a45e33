package dev.threadline.trigger;

import static io.opentelemetry.api.common.AttributeKey.stringKey;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.telemetry.GenAi;
import dev.threadline.telemetry.TraceAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one place that turns a schedule firing into a Thread and its first Run: used by the runner's
 * {@code trigger} (recurring schedules), the operator (one-time schedules) and the API's {@code
 * POST /v1/schedules/:id/trigger}. Idempotent per thread name: firing again finds the thread, makes
 * sure its run exists, and reports that nothing new was created.
 *
 * <p>Each firing is a span ({@code fire_schedule <name>}) whose W3C context the Run carries in its
 * annotations ({@link TraceAnnotations}): the operator's {@code invoke_agent} span of that run
 * continues it, so a scheduled run's trace shows the firing it came from (and, for a firing the API
 * made, the request).
 */
public final class ScheduleFirer {
  static final String SPAN_PREFIX = "fire_schedule ";
  static final AttributeKey<String> SCHEDULE_NAME = stringKey("threadline.schedule.name");
  static final AttributeKey<String> FIRING_TIME = stringKey("threadline.schedule.firing_time");
  static final AttributeKey<String> SKIPPED = stringKey("threadline.schedule.skipped");

  private final KubernetesClient client;
  private final int threadLimit;
  private final Tracer tracer;

  /**
   * @param threadLimit how many threads the schedule's namespace (its user) may hold: a firing that
   *     would make one more creates nothing
   * @param tracer where firings become spans (a no-op one when traces are off)
   */
  public ScheduleFirer(KubernetesClient client, int threadLimit, Tracer tracer) {
    if (threadLimit < 1) {
      throw new IllegalArgumentException("threadLimit must be at least 1");
    }
    this.client = client;
    this.threadLimit = threadLimit;
    this.tracer = tracer;
  }

  /**
   * What a firing produced: {@code created} is false when the thread already existed; {@code
   * skipped} says why nothing was created (the user holds the thread limit), otherwise null.
   */
  public record Firing(String threadName, String runName, boolean created, String skipped) {
    static Firing skipped(String threadName, String reason) {
      return new Firing(threadName, null, false, reason);
    }

    public boolean isSkipped() {
      return skipped != null;
    }
  }

  /**
   * Creates the thread {@code threadName} for the firing of {@code schedule} scheduled at {@code
   * firingTime}, and its first run, unless the namespace holds the thread limit already (then
   * nothing, and a skipped firing). Needs list and create (and, to finish an interrupted firing,
   * get) on threads and create on runs in the schedule's namespace.
   */
  public Firing fire(Schedule schedule, String threadName, Instant firingTime) {
    Span span =
        tracer
            .spanBuilder(SPAN_PREFIX + schedule.getMetadata().getName())
            .setAttribute(SCHEDULE_NAME, schedule.getMetadata().getName())
            .setAttribute(FIRING_TIME, Timestamps.format(firingTime))
            .setAttribute(GenAi.CONVERSATION_ID, ResourceIds.toIdOrName(threadName))
            .startSpan();
    try (Scope ignored = span.makeCurrent()) {
      Firing firing = fireInSpan(schedule, threadName, firingTime);
      if (firing.isSkipped()) {
        span.setAttribute(SKIPPED, firing.skipped());
      }
      return firing;
    } catch (RuntimeException e) {
      span.setStatus(StatusCode.ERROR, e.getMessage());
      span.setAttribute(GenAi.ERROR_TYPE, e.getClass().getName());
      throw e;
    } finally {
      span.end();
    }
  }

  private Firing fireInSpan(Schedule schedule, String threadName, Instant firingTime) {
    String namespace = schedule.getMetadata().getNamespace();
    Optional<String> full = overLimit(namespace, threadName);
    if (full.isPresent()) {
      return Firing.skipped(threadName, full.get());
    }
    boolean created = true;
    ConversationThread thread;
    try {
      thread =
          client
              .resources(ConversationThread.class)
              .inNamespace(namespace)
              .resource(newThread(schedule, threadName, firingTime))
              .create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      created = false;
      thread =
          client
              .resources(ConversationThread.class)
              .inNamespace(namespace)
              .withName(threadName)
              .get();
      if (thread == null) {
        throw e;
      }
    }
    Run run = newRun(schedule, thread);
    // The operator's span of this run continues the firing's.
    Map<String, String> trace = TraceAnnotations.of(Context.current());
    if (!trace.isEmpty()) {
      Map<String, String> annotations = new LinkedHashMap<>(trace);
      if (run.getMetadata().getAnnotations() != null) {
        annotations.putAll(run.getMetadata().getAnnotations());
      }
      run.getMetadata().setAnnotations(annotations);
    }
    try {
      client.resources(Run.class).inNamespace(namespace).resource(run).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
    return new Firing(threadName, run.getMetadata().getName(), created, null);
  }

  /**
   * Why a new thread may not be made: the namespace holds {@link #threadLimit} live threads
   * (deleted ones excluded, as the API server counts). A firing whose thread exists already (an
   * interrupted one) is finished whatever the count: it adds no thread.
   */
  private Optional<String> overLimit(String namespace, String threadName) {
    List<ConversationThread> threads =
        client.resources(ConversationThread.class).inNamespace(namespace).list().getItems();
    long live =
        threads.stream()
            .filter(thread -> thread.getMetadata().getDeletionTimestamp() == null)
            .count();
    boolean exists =
        threads.stream().anyMatch(thread -> threadName.equals(thread.getMetadata().getName()));
    if (exists || live < threadLimit) {
      return Optional.empty();
    }
    return Optional.of(
        "Limit exceeded: a user may hold at most "
            + threadLimit
            + " threads; the firing made none (delete threads to let the schedule fire again)");
  }

  /**
   * The thread of one firing: the schedule's agent, environment, appId and metadata, titled by name
   * and time.
   */
  static ConversationThread newThread(Schedule schedule, String threadName, Instant firingTime) {
    ScheduleSpec spec = schedule.getSpec();
    String scheduleName = schedule.getMetadata().getName();
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(schedule.getMetadata().getNamespace())
            .withName(threadName)
            .withLabels(labels(scheduleName, null))
            .build());
    ThreadSpec threadSpec = new ThreadSpec();
    String title =
        spec.getDisplayName() == null || spec.getDisplayName().isBlank()
            ? scheduleName
            : spec.getDisplayName();
    threadSpec.setTitle(truncate(title + " — " + Timestamps.format(firingTime), 500));
    threadSpec.setAgent(spec.getAgent());
    threadSpec.setEnvironment(spec.getEnvironment());
    threadSpec.setAppId(spec.getAppId());
    threadSpec.setMetadata(spec.getMetadata());
    thread.setSpec(threadSpec);
    return thread;
  }

  /**
   * The thread's first run: the task as the user message, owned by the thread, labelled with both.
   */
  static Run newRun(Schedule schedule, ConversationThread thread) {
    String scheduleName = schedule.getMetadata().getName();
    Run run =
        ThreadRuns.newRun(
            thread, 1, schedule.getSpec().getTask(), List.of(), ThreadRuns.SOURCE_SCHEDULE);
    run.getMetadata().getLabels().put(Labels.SCHEDULE, scheduleName);
    run.getSpec().setSchedule(scheduleName);
    return run;
  }

  private static Map<String, String> labels(String scheduleName, String threadName) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.SCHEDULE, scheduleName);
    if (threadName != null) {
      labels.put(Labels.THREAD, threadName);
    }
    labels.put(Labels.MANAGED_BY, Labels.MANAGER);
    return labels;
  }

  private static String truncate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
