package dev.threadline.core.environment;

/**
 * The images environments are built from when the configuration names none. The operator and the
 * api-server render the same Dockerfile, so both take these defaults from here (and both read
 * {@code THREADLINE_BASE_IMAGE} / {@code THREADLINE_RUNNER_IMAGE}, which the Helm chart sets
 * alike).
 */
public final class ImageDefaults {
  /** A glibc Linux with apt, shadow's useradd and bash: what the rendered Dockerfile relies on. */
  public static final String BASE_IMAGE = "docker.io/library/ubuntu:24.04";

  /** The runner's image (runner/Dockerfile), which environment images copy the runner from. */
  public static final String RUNNER_IMAGE = "ghcr.io/threadline/runner:0.1.0";

  private ImageDefaults() {}
}
