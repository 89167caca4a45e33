package dev.threadline.crds.common;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

/**
 * The one way Threadline points an object at its owner, so that garbage collection removes it with
 * the owner.
 */
public final class OwnerReferences {
  private OwnerReferences() {}

  /** {@code owner} as the controller of the object that carries the reference. */
  public static OwnerReference controller(HasMetadata owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withController(true)
        .build();
  }

  /**
   * As {@link #controller}, and the owner's foreground deletion waits for the object. Needs the
   * right to update the owner's finalizers, so only controllers with that right use it.
   */
  public static OwnerReference blockingController(HasMetadata owner) {
    return new OwnerReferenceBuilder(controller(owner)).withBlockOwnerDeletion(true).build();
  }
}
