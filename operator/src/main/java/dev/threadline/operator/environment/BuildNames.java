package dev.threadline.operator.environment;

/**
 * Deterministic names of build objects: {@code <environment>-<kind>-<hash>-<request>} for the Job
 * and its build-context ConfigMap, so that one build request always means one Job, across operator
 * restarts and concurrent operators. The environment part is shortened when needed: a Job's name
 * becomes a label value of its Pods, and label values hold at most 63 characters.
 */
final class BuildNames {
  static final int MAX_NAME = 63;

  private BuildNames() {}

  static String job(String environmentName, BuildKind kind, String hash, String requestId) {
    String suffix = "-" + kind.label() + "-" + hash + "-" + requestId;
    int room = MAX_NAME - suffix.length();
    String prefix =
        environmentName.length() <= room ? environmentName : environmentName.substring(0, room);
    return prefix.replaceAll("[-.]+$", "") + suffix;
  }
}
