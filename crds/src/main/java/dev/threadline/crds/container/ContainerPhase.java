package dev.threadline.crds.container;

import java.util.Arrays;

/** The contract's container status values, as {@code status.phase} holds them. */
public enum ContainerPhase {
  /** Accepted; its Pod is not created or not scheduled yet. */
  PENDING("pending"),
  /** The Pod runs, the file API does not answer yet. */
  STARTING("starting"),
  /** The file API answers. */
  RUNNING("running"),
  /** Being deleted. */
  STOPPING("stopping"),
  /** The Pod cannot start or has ended with an error. */
  FAILED("failed");

  private final String value;

  ContainerPhase(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** The phase for a stored value; {@link #PENDING} when unknown or absent. */
  public static ContainerPhase of(String value) {
    return Arrays.stream(values())
        .filter(phase -> phase.value.equals(value))
        .findFirst()
        .orElse(PENDING);
  }
}
