package dev.threadline.operator.environment;

import dev.threadline.kube.builds.StoredBuildLogs;

/** A build that produces the environment's image, or a test build that only proves it builds. */
enum BuildKind {
  /** Pushes {@code <registry>/env-<name>:<hash>}, with the layer cache. */
  IMAGE("build", StoredBuildLogs.IMAGE_BUILD_KEY),
  /** No cache and no push: {@code POST .../build/test}. */
  TEST("test", StoredBuildLogs.TEST_BUILD_KEY);

  private final String label;
  private final String logKey;

  BuildKind(String label, String logKey) {
    this.label = label;
    this.logKey = logKey;
  }

  /** The value of the build-kind label, and the infix of the Job's name. */
  String label() {
    return label;
  }

  /** The key of the stored log in the build-logs ConfigMap. */
  String logKey() {
    return logKey;
  }
}
