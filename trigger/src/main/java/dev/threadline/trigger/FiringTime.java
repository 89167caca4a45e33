package dev.threadline.trigger;

import dev.threadline.core.schedule.FiringNames;
import dev.threadline.crds.common.Timestamps;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

/**
 * Which firing this trigger is, as the instant it was scheduled for: the same for every start of
 * the same firing, so that they all name the same thread. In order: an explicit {@value
 * TriggerPod#FIRING_TIME_VARIABLE}; the Job's name, which the CronJob controller makes {@code
 * <cronjob>-<scheduled epoch minutes>}; else the current minute (a Job made by hand).
 */
final class FiringTime {
  private FiringTime() {}

  /** The firing's instant, and where it came from (for the log). */
  record Resolved(Instant instant, String source) {}

  static Resolved resolve(String scheduleName, Map<String, String> env, Clock clock) {
    String explicit = env.get(TriggerPod.FIRING_TIME_VARIABLE);
    if (explicit != null && !explicit.isBlank()) {
      Instant instant =
          Timestamps.parse(explicit.strip())
              .orElseThrow(() ->
                  new IllegalArgumentException(
                      TriggerPod.FIRING_TIME_VARIABLE
                          + " must be an ISO 8601 instant, got \""
                          + explicit
                          + "\""));
      return new Resolved(instant, TriggerPod.FIRING_TIME_VARIABLE);
    }
    Optional<Instant> fromJob =
        fromJobName(FiringNames.cronJobName(scheduleName), env.get(TriggerPod.JOB_NAME_VARIABLE));
    if (fromJob.isPresent()) {
      return new Resolved(fromJob.get(), "job " + env.get(TriggerPod.JOB_NAME_VARIABLE));
    }
    return new Resolved(clock.instant().truncatedTo(ChronoUnit.MINUTES), "the current minute");
  }

  /**
   * {@code sched-a-29412345} of CronJob {@code sched-a} → minute 29412345; anything else → empty.
   */
  static Optional<Instant> fromJobName(String cronJobName, String jobName) {
    if (jobName == null || !jobName.startsWith(cronJobName + "-")) {
      return Optional.empty();
    }
    String minutes = jobName.substring(cronJobName.length() + 1);
    if (minutes.isEmpty()
        || minutes.length() > 12
        || !minutes.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    return Optional.of(Instant.ofEpochSecond(Long.parseLong(minutes) * 60));
  }
}
