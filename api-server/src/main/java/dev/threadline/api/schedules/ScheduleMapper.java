package dev.threadline.api.schedules;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.api.webhooks.WebhookViews;
import dev.threadline.core.schedule.CronSchedule;
import dev.threadline.core.schedule.InvalidScheduleException;
import dev.threadline.core.schedule.Schedules;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.schedule.ScheduleStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Converts between the {@code Schedule} custom resource and its REST view. {@code nextRunAt} is
 * computed from the spec at read time, so it is right at once (a new schedule's response has it)
 * and never stale between the operator's status updates; the counts come from the status.
 */
final class ScheduleMapper {
  static final String ID_PREFIX = Schedule.ID_PREFIX;

  /** The spec's metadata is a Jackson 2 tree (fabric8's); REST bodies are Jackson 3. */
  private static final ObjectMapper JACKSON2 = new ObjectMapper();

  /** Creation time, then name: a stable order even within one second of creation timestamps. */
  static final Comparator<Schedule> LIST_ORDER =
      Comparator.comparing(
              ScheduleMapper::createdAt, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(schedule -> schedule.getMetadata().getName());

  private ScheduleMapper() {}

  static ScheduleView toView(Schedule schedule, String userId, Instant now) {
    return toView(schedule, userId, now, Map.of());
  }

  /** The view, showing the webhook secrets this write generated (by URL). */
  static ScheduleView toView(
      Schedule schedule, String userId, Instant now, Map<String, String> generatedSecrets) {
    ScheduleSpec spec = Optional.ofNullable(schedule.getSpec()).orElseGet(ScheduleSpec::new);
    ScheduleStatus status =
        Optional.ofNullable(schedule.getStatus()).orElseGet(ScheduleStatus::new);
    Instant created = createdAt(schedule);
    Instant updated = RestResources.updatedAt(schedule, created);
    boolean recurring = Schedules.isRecurring(schedule);
    return new ScheduleView(
        ResourceIds.toId(schedule.getMetadata().getName()),
        userId,
        spec.getDisplayName(),
        spec.getDescription(),
        spec.getTask(),
        idOf(spec.getAgent()),
        idOf(spec.getEnvironment()),
        spec.getScheduleType(),
        recurring ? spec.getCronExpression() : null,
        recurring ? null : Timestamps.normalize(spec.getScheduledTime()),
        Schedules.timezone(schedule),
        willFire(schedule),
        nextRunAt(schedule, now).map(Timestamps::format).orElse(null),
        Timestamps.normalize(status.getLastRunAt()),
        Objects.requireNonNullElse(status.getRunCount(), 0L),
        Objects.requireNonNullElse(status.getSuccessCount(), 0L),
        Objects.requireNonNullElse(status.getFailureCount(), 0L),
        Objects.requireNonNullElse(status.getTotalCost(), 0.0),
        spec.getAppId(),
        metadata(spec),
        Timestamps.format(created),
        Timestamps.format(updated),
        WebhookViews.of(spec.getWebhooks(), generatedSecrets));
  }

  /** {@code spec.enabled}, except that a one-time schedule that has run will not fire again. */
  static boolean willFire(Schedule schedule) {
    return Schedules.isEnabled(schedule)
        && (Schedules.isRecurring(schedule) || !Schedules.hasFired(schedule));
  }

  /**
   * The next firing after {@code now}; empty when it will not fire, or when its spec is invalid
   * (kubectl).
   */
  static Optional<Instant> nextRunAt(Schedule schedule, Instant now) {
    if (!willFire(schedule)) {
      return Optional.empty();
    }
    ScheduleSpec spec = schedule.getSpec();
    if (Schedules.isRecurring(schedule)) {
      try {
        return CronSchedule.parse(spec.getCronExpression(), Schedules.timezone(schedule))
            .nextAfter(now);
      } catch (InvalidScheduleException invalid) {
        return Optional.empty();
      }
    }
    return Timestamps.parse(spec.getScheduledTime());
  }

  /** Whether a REST id can name this schedule (one made with kubectl under another name cannot). */
  static boolean hasRestId(Schedule schedule) {
    return RestResources.hasRestId(schedule, ID_PREFIX);
  }

  static Schedule newSchedule(String namespace, String id, ScheduleSpec spec, Instant now) {
    Schedule schedule = new Schedule();
    schedule.setMetadata(
        RestResources.newMetadata(namespace, ResourceIds.toName(id).orElseThrow(), now));
    schedule.setSpec(spec);
    return schedule;
  }

  static com.fasterxml.jackson.databind.JsonNode metadataTree(Map<String, Object> metadata) {
    return metadata == null ? null : JACKSON2.valueToTree(metadata);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metadata(ScheduleSpec spec) {
    return spec.getMetadata() == null || !spec.getMetadata().isObject()
        ? null
        : JACKSON2.convertValue(spec.getMetadata(), Map.class);
  }

  private static String idOf(String name) {
    return name == null || !ResourceIds.isValidName(name) ? name : ResourceIds.toId(name);
  }

  private static Instant createdAt(Schedule schedule) {
    return Timestamps.parse(schedule.getMetadata().getCreationTimestamp()).orElse(null);
  }
}
