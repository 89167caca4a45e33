package dev.threadline.api.threads;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimit;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.MultitaskStrategy;
import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Run resources: a thread's runs from the cache; creation, cancellation and deletion through the
 * API.
 */
final class RunStore {
  /** Index of runs by {@code namespace/thread name}, the way the operator indexes them. */
  static final String BY_THREAD = "thread";

  /** By position in the thread, oldest first. */
  static final Comparator<Run> BY_SEQUENCE = Comparator.comparingLong(RunStore::sequence);

  private static final String CANCEL_PATCH = "{\"spec\":{\"cancelRequested\":true}}";

  private final KubernetesClient client;
  private final ManagedInformer<Run> cache;
  private final Duration visibilityTimeout;
  private final ObjectLimit limit;

  RunStore(
      KubernetesClient client,
      ManagedInformer<Run> cache,
      Duration visibilityTimeout,
      ObjectLimit limit) {
    this.client = client;
    this.cache = cache;
    this.visibilityTimeout = visibilityTimeout;
    this.limit = limit;
  }

  static Function<Run, List<String>> threadIndex() {
    return run ->
        run.getSpec() == null || run.getSpec().getThread() == null
            ? List.of()
            : List.of(
                Cache.namespaceKeyFunc(
                    run.getMetadata().getNamespace(), run.getSpec().getThread()));
  }

  static long sequence(Run run) {
    return Objects.requireNonNullElse(run.getSpec().getSequence(), 0L);
  }

  /** The thread's runs, oldest first. Shared objects: do not modify. */
  List<Run> ofThread(String namespace, String threadName) {
    return cache.byIndex(BY_THREAD, Cache.namespaceKeyFunc(namespace, threadName)).stream()
        .sorted(BY_SEQUENCE)
        .toList();
  }

  /** One run from the cache. Shared object: do not modify. */
  Optional<Run> find(String namespace, String name) {
    return cache.get(namespace, name);
  }

  /** One run as the Kubernetes API has it now (not the cache): empty when there is none. */
  Optional<Run> fetch(String namespace, String name) {
    return Optional.ofNullable(
        client.resources(Run.class).inNamespace(namespace).withName(name).get());
  }

  /**
   * Creates the run; empty when a run of that name already exists, which is how two requests racing
   * for the same position in a thread learn that one of them lost.
   */
  Optional<Run> create(Run run) {
    limit.checkRoom(cache.countInNamespace(run.getMetadata().getNamespace()));
    try {
      Run created =
          client
              .resources(Run.class)
              .inNamespace(run.getMetadata().getNamespace())
              .resource(run)
              .create();
      cache.awaitVisible(created, visibilityTimeout);
      return Optional.of(created);
    } catch (KubernetesClientException failure) {
      if (failure.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return Optional.empty();
      }
      throw failure;
    }
  }

  /** Asks the operator to stop the run; false when the run no longer exists. */
  boolean requestCancel(String namespace, String name) {
    return patchSpec(namespace, name, CANCEL_PATCH);
  }

  private boolean patchSpec(String namespace, String name, String patch) {
    try {
      client
          .resources(Run.class)
          .inNamespace(namespace)
          .withName(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      return true;
    } catch (KubernetesClientException failure) {
      if (failure.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw failure;
    }
  }

  /**
   * Asks the operator to stop the run for a newer message of its thread, marked with that message's
   * {@code strategy} ({@code interrupt} or {@code rollback}); false when the run no longer exists.
   */
  boolean requestSupersede(String namespace, String name, MultitaskStrategy strategy) {
    return patchSpec(
        namespace,
        name,
        "{\"spec\":{\"cancelRequested\":true,\"supersededBy\":\"" + strategy.value() + "\"}}");
  }

  /**
   * Changes the run as the Kubernetes API has it now: {@code change} edits a fresh copy and says
   * whether to write it; a write that meets another (409) is tried again on the newer version.
   * Returns the run as written (or as it is when {@code change} wrote nothing); empty when the run
   * no longer exists.
   */
  Optional<Run> update(String namespace, String name, Predicate<Run> change) {
    for (int attempt = 1; ; attempt++) {
      Run current = client.resources(Run.class).inNamespace(namespace).withName(name).get();
      if (current == null) {
        return Optional.empty();
      }
      if (!change.test(current)) {
        return Optional.of(current);
      }
      try {
        return Optional.of(client.resource(current).update());
      } catch (KubernetesClientException failure) {
        if (failure.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
          return Optional.empty();
        }
        if (failure.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == UPDATE_ATTEMPTS) {
          throw failure;
        }
      }
    }
  }

  private static final int UPDATE_ATTEMPTS = 5;

  /**
   * Deletes the thread's runs. Their owner reference would let Kubernetes' garbage collector do it,
   * but not every API server runs one (the embedded one does not), and a run left behind would
   * outlive its thread, unreachable through the API. Listed fresh from the API (not the cache) and
   * deleted one by one: no {@code deletecollection} permission needed.
   */
  void deleteOfThread(String namespace, String threadName) {
    for (Run run :
        client
            .resources(Run.class)
            .inNamespace(namespace)
            .withLabel(Labels.THREAD, threadName)
            .list()
            .getItems()) {
      client
          .resources(Run.class)
          .inNamespace(namespace)
          .withName(run.getMetadata().getName())
          .delete();
    }
  }
}
