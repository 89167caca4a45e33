package dev.threadline.api.kubernetes;

import dev.threadline.crds.common.ThreadlineGroup;

/** Annotations the API server maintains on the custom resources it writes. */
public final class Annotations {
  /**
   * When the resource last changed as a REST client sees it (ISO 8601 UTC); the REST {@code
   * updatedAt}. Kubernetes keeps no such time itself.
   */
  public static final String UPDATED_AT = ThreadlineGroup.GROUP + "/updated-at";

  /**
   * When the API server created the resource (ISO 8601 UTC, milliseconds): orders lists newest
   * first even within one second, which {@code creationTimestamp} cannot resolve.
   */
  public static final String CREATED_AT = dev.threadline.crds.common.Labels.CREATED_AT;

  private Annotations() {}
}
