package dev.threadline.trigger;

import dev.threadline.core.kubernetes.EventObjects;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.schedule.Schedule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.Optional;

/**
 * The Event a schedule's firing leaves on its Schedule ({@code kubectl describe schedule}): {@value
 * #FIRED} with the thread it made, or a Warning {@value #SKIPPED} with why it made none. One
 * wording for both firers: the operator (one-time schedules, through its correlating recorder) and
 * the trigger (a recurring schedule's CronJob Pod, one Event a firing).
 */
public final class FiringEvents {
  public static final String FIRED = "ScheduleFired";
  public static final String SKIPPED = "ScheduleSkipped";

  /** The trigger's name as an Event's source. */
  static final String COMPONENT = "threadline-trigger";

  private FiringEvents() {}

  /**
   * The reason and message for {@code firing} of the time {@code at}; empty when it found the
   * thread of an earlier attempt (the same firing: one Event).
   */
  public static Optional<Described> describe(ScheduleFirer.Firing firing, Instant at) {
    if (firing.isSkipped()) {
      return Optional.of(
          new Described(
              EventObjects.WARNING,
              SKIPPED,
              "The firing of " + Timestamps.format(at) + " made no thread: " + firing.skipped()));
    }
    if (!firing.created()) {
      return Optional.empty();
    }
    return Optional.of(
        new Described(
            EventObjects.NORMAL,
            FIRED,
            "Fired for " + Timestamps.format(at) + ": thread " + firing.threadName()));
  }

  /**
   * Writes the firing's Event as the trigger; false when the API refused it (an Event is a
   * courtesy: the firing stands either way).
   */
  static boolean record(
      KubernetesClient client,
      Schedule schedule,
      ScheduleFirer.Firing firing,
      Instant at,
      Instant now) {
    Optional<Described> described = describe(firing, at);
    if (described.isEmpty()) {
      return true;
    }
    Described event = described.get();
    try {
      client
          .v1()
          .events()
          .inNamespace(schedule.getMetadata().getNamespace())
          .resource(
              EventObjects.event(
                  schedule,
                  event.type(),
                  event.reason(),
                  event.message(),
                  EventObjects.newName(schedule, now),
                  1,
                  now,
                  now,
                  COMPONENT))
          .create();
      return true;
    } catch (KubernetesClientException refused) {
      return false;
    }
  }

  /** An Event's type ({@code Normal} or {@code Warning}), reason and message. */
  public record Described(String type, String reason, String message) {}
}
