package dev.threadline.core.schedule;

import dev.threadline.core.hashing.Sha256;
import java.time.Instant;

/**
 * Deterministic names for what a schedule makes, so that doing the same thing twice collides in the
 * Kubernetes API instead of duplicating it. Every name here is also used as a label value, hence at
 * most 63 characters.
 */
public final class FiringNames {
  /** Kubernetes' limit on label values (and the CronJob controller's on Job names is 63 too). */
  static final int MAX_LABEL_VALUE = 63;

  /** A CronJob's Jobs are named {@code <cronjob>-<epoch minutes>}: 11 more characters. */
  static final int MAX_CRONJOB_NAME = 52;

  private FiringNames() {}

  /**
   * The Thread of the firing scheduled for {@code firingTime}: {@code sched-abc} at minute 29412345
   * → {@code thread-abc-29412345}. Two starts of the same firing get the same name.
   */
  public static String threadName(String scheduleName, Instant firingTime) {
    return bounded(
        "thread-" + suffix(scheduleName), "-" + epochMinutes(firingTime), MAX_LABEL_VALUE);
  }

  /** The CronJob of a recurring schedule: its own name when short enough. */
  public static String cronJobName(String scheduleName) {
    return bounded(scheduleName, "", MAX_CRONJOB_NAME);
  }

  /** The CronJob controller names a firing's Job {@code <cronjob>-<this number>}. */
  public static long epochMinutes(Instant time) {
    return Math.floorDiv(time.getEpochSecond(), 60);
  }

  /** What follows the kind prefix: {@code sched-abc} → {@code abc}. */
  static String suffix(String name) {
    int dash = name.indexOf('-');
    return dash < 0 ? name : name.substring(dash + 1);
  }

  /**
   * {@code base + tail}, with base shortened and made unique by a hash when the whole is too long.
   */
  private static String bounded(String base, String tail, int max) {
    if (base.length() + tail.length() <= max) {
      return base + tail;
    }
    String hash = Sha256.hex(base).substring(0, 8);
    String kept = base.substring(0, max - tail.length() - hash.length() - 1);
    while (kept.endsWith("-")) {
      kept = kept.substring(0, kept.length() - 1);
    }
    return kept + "-" + hash + tail;
  }
}
