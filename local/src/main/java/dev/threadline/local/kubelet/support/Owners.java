package dev.threadline.local.kubelet.support;

import dev.threadline.crds.common.OwnerReferences;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import java.util.Optional;

/** Owner references as the built-in controllers write and read them. */
public final class Owners {
  private Owners() {}

  /**
   * The reference a controller puts on what it creates: controller=true, blockOwnerDeletion=true.
   */
  public static OwnerReference controllerReference(HasMetadata owner) {
    return OwnerReferences.blockingController(owner);
  }

  /** The controller reference of an object, if it has one of the given kind. */
  public static Optional<OwnerReference> controllerOfKind(HasMetadata object, String kind) {
    List<OwnerReference> references = object.getMetadata().getOwnerReferences();
    if (references == null) {
      return Optional.empty();
    }
    return references.stream()
        .filter(reference -> Boolean.TRUE.equals(reference.getController()))
        .filter(reference -> kind.equals(reference.getKind()))
        .findFirst();
  }

  public static boolean isControlledBy(HasMetadata object, HasMetadata owner) {
    return controllerOfKind(object, owner.getKind())
        .map(reference -> reference.getUid().equals(owner.getMetadata().getUid()))
        .orElse(false);
  }

  public static boolean isOwnedByUid(HasMetadata object, String uid) {
    List<OwnerReference> references = object.getMetadata().getOwnerReferences();
    return references != null
        && references.stream().anyMatch(reference -> uid.equals(reference.getUid()));
  }
}
