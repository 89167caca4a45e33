package dev.threadline.local.kubelet.controllers;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Optional;

/** Creating and deleting the objects a controller owns. */
final class ChildObjects {
  private ChildObjects() {}

  /** Creates the child; empty when its name is taken (409), which each caller reads its own way. */
  static <T extends HasMetadata> Optional<T> createUnlessTaken(KubernetesClient client, T child) {
    try {
      return Optional.of(client.resource(child).create());
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      return Optional.empty();
    }
  }

  /** Deletes a Job; in the background, so that the garbage collector removes its Pods too. */
  static void deleteJob(KubernetesClient client, Job job) {
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace(job.getMetadata().getNamespace())
        .withName(job.getMetadata().getName())
        .withPropagationPolicy(DeletionPropagation.BACKGROUND)
        .delete();
  }
}
