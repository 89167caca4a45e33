package dev.threadline.local.kubelet.support;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** The {@code Kind(ns/name)} prefix every log line about an object starts with. */
public final class Describe {
  private Describe() {}

  public static String of(HasMetadata object) {
    return of(
        object.getKind(), object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  public static String of(String kind, String namespace, String name) {
    return namespace == null ? kind + "(" + name + ")" : kind + "(" + namespace + "/" + name + ")";
  }
}
