package dev.threadline.api.threads;

import dev.threadline.api.common.JsonBridge;
import dev.threadline.api.kubernetes.Annotations;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.core.threads.ThreadTotals;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Converts between the {@code Thread} custom resource and its REST views. */
final class ThreadMapper {
  static final String ID_PREFIX = ConversationThread.ID_PREFIX;
  static final String AGENT_PREFIX = Agent.ID_PREFIX;
  static final String ENVIRONMENT_PREFIX = Environment.ID_PREFIX;
  static final String SCHEDULE_PREFIX = Schedule.ID_PREFIX;

  private ThreadMapper() {}

  static ThreadView toView(ConversationThread thread, List<Run> runs, String userId) {
    ThreadSpec spec = Optional.ofNullable(thread.getSpec()).orElseGet(ThreadSpec::new);
    ThreadTotals totals = ThreadRollup.of(thread, runs);
    Instant created = createdAt(thread);
    JsonNode metadata =
        Optional.ofNullable(JsonBridge.fromResource(spec.getMetadata()))
            .filter(JsonNode::isObject)
            .orElseGet(JsonNodeFactory.instance::objectNode);
    return new ThreadView(
        ResourceIds.toId(thread.getMetadata().getName()),
        userId,
        environmentIdOf(thread),
        idOf(spec.getAgent()),
        spec.getTitle(),
        totals.state().value(),
        totals.messageCount(),
        totals.tokens().input(),
        totals.tokens().output(),
        totals.totalCost(),
        spec.getAppId(),
        metadata,
        Timestamps.format(created),
        Timestamps.format(updatedAt(thread, runs, created)));
  }

  /** The REST id of the thread's environment; null when it names none. */
  static String environmentIdOf(ConversationThread thread) {
    return thread.getSpec() == null ? null : idOf(thread.getSpec().getEnvironment());
  }

  /** Whether a REST id can name this thread (one made with kubectl under another name cannot). */
  static boolean hasRestId(ConversationThread thread) {
    return RestResources.hasRestId(thread, ID_PREFIX);
  }

  static ConversationThread newThread(String namespace, String id, ThreadSpec spec, Instant now) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        RestResources.newMetadata(namespace, ResourceIds.toName(id).orElseThrow(), now));
    RestResources.setAnnotation(thread, Annotations.CREATED_AT, Timestamps.format(now));
    thread.setSpec(spec);
    return thread;
  }

  /** Our millisecond annotation when present, else the API server's creation time. */
  static Instant createdAt(ConversationThread thread) {
    return annotation(thread, Annotations.CREATED_AT)
        .or(() -> Timestamps.parse(thread.getMetadata().getCreationTimestamp()))
        .orElse(null);
  }

  /**
   * The latest of: the client's last change, the operator's last rollup, and the latest run's
   * creation or completion; never before {@code createdAt}.
   */
  private static Instant updatedAt(ConversationThread thread, List<Run> runs, Instant created) {
    Stream<Optional<Instant>> candidates =
        Stream.of(
            annotation(thread, Annotations.UPDATED_AT),
            Optional.ofNullable(thread.getStatus())
                .flatMap(status -> Timestamps.parse(status.getUpdatedAt())),
            runs.stream()
                .map(ThreadMapper::lastActivity)
                .flatMap(Optional::stream)
                .max(Comparator.naturalOrder()),
            Optional.ofNullable(created));
    return candidates.flatMap(Optional::stream).max(Comparator.naturalOrder()).orElse(null);
  }

  private static Optional<Instant> lastActivity(Run run) {
    return Optional.ofNullable(run.getStatus())
        .map(RunStatus::getCompletedAt)
        .flatMap(Timestamps::parse)
        .or(() -> Timestamps.parse(run.getMetadata().getCreationTimestamp()));
  }

  private static Optional<Instant> annotation(ConversationThread thread, String name) {
    return Optional.ofNullable(thread.getMetadata().getAnnotations())
        .map(annotations -> annotations.get(name))
        .flatMap(Timestamps::parse);
  }

  /** The REST id of a referenced resource's name; null when there is none. */
  private static String idOf(String name) {
    return name != null && ResourceIds.isValidName(name) ? ResourceIds.toId(name) : name;
  }
}
