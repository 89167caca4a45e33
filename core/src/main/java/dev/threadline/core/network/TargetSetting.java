package dev.threadline.core.network;

/** Names, in a refusal, the setting that would admit an address that was refused. */
@FunctionalInterface
public interface TargetSetting {
  /** What to set so that {@code needed} is admitted, e.g. {@code X=private}. */
  String toAllow(AllowedTargets needed);

  /** A variable that takes {@code public}, {@code loopback} or {@code private}. */
  static TargetSetting choice(String variable) {
    return needed ->
        needed == AllowedTargets.LOOPBACK
            ? variable + "=loopback or private"
            : variable + "=" + needed.value();
  }

  /** A boolean variable whose {@code true} admits private networks, loopback included. */
  static TargetSetting flag(String variable) {
    return needed -> variable + "=true";
  }
}
