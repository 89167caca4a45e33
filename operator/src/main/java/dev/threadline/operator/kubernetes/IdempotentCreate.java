package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.function.Supplier;

/**
 * Creates objects whose names are deterministic, so that a repeated reconcile (a restart, a second
 * operator, a cache that was behind) finds the object made before instead of failing: the API's 409
 * means "already there", every other error is thrown.
 */
public final class IdempotentCreate {
  private IdempotentCreate() {}

  /**
   * Creates the object, or returns the one that exists under its name (the given one when that was
   * deleted in between).
   */
  public static <T extends HasMetadata> T createOrGet(KubernetesClient client, T object) {
    return orExisting(client, object, () -> client.resource(object).create());
  }

  /**
   * Runs {@code create} (which creates {@code object} its own way, e.g. a dependent resource's
   * create), or returns the object that exists under its name.
   */
  public static <T extends HasMetadata> T orExisting(
      KubernetesClient client, T object, Supplier<T> create) {
    try {
      return create.get();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      T existing = client.resource(object).get();
      return existing == null ? object : existing;
    }
  }

  /** Creates the object unless one exists under its name; returns whether it was created. */
  public static boolean createUnlessExists(KubernetesClient client, HasMetadata object) {
    try {
      client.resource(object).create();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      return false;
    }
  }
}
