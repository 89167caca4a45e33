package dev.threadline.api.environments;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.crds.common.ThreadlineGroup;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The user's default environment: exactly one, also under concurrent {@code set-default} calls and
 * with several API server replicas. Each call marks its environment default with the time it did so
 * ({@value #DEFAULT_SINCE}), then converges: of all environments marked default, the most recently
 * marked one wins and every other is unmarked under optimistic locking. Every caller converges
 * after its own mark, so whatever the interleaving, one default remains: the latest.
 */
final class DefaultEnvironments {
  private static final Logger log = LoggerFactory.getLogger(DefaultEnvironments.class);

  /**
   * Deterministic, so that concurrent first calls of {@code GET /environments/default} create one.
   */
  static final String DEFAULT_NAME = "env-default";

  static final String DEFAULT_DISPLAY_NAME = "Default";
  static final String DEFAULT_SINCE = ThreadlineGroup.GROUP + "/default-since";
  private static final int CONVERGE_ROUNDS = 10;

  /** Latest mark first; the name breaks ties the same way for every caller. */
  private static final Comparator<Environment> LATEST_MARK_FIRST =
      Comparator.comparing(DefaultEnvironments::markedAt)
          .thenComparing(environment -> environment.getMetadata().getName())
          .reversed();

  private final EnvironmentStore store;
  private final java.time.Clock clock;

  DefaultEnvironments(EnvironmentStore store, java.time.Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** The default among cached environments: active, marked, the latest mark. */
  Optional<Environment> current(String namespace) {
    return store.list(namespace).stream()
        .filter(EnvironmentMapper::isActive)
        .filter(EnvironmentMapper::isDefault)
        .min(LATEST_MARK_FIRST);
  }

  /** The default environment, creating {@value #DEFAULT_NAME} on first use. */
  Environment getOrCreate(String namespace) {
    Optional<Environment> current = current(namespace);
    if (current.isPresent()) {
      return current.get();
    }
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName(DEFAULT_DISPLAY_NAME);
    try {
      store.create(
          EnvironmentMapper.newEnvironment(namespace, DEFAULT_NAME, spec, clock.instant()));
      log.info("Environment({}/{}) created as the user's default", namespace, DEFAULT_NAME);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // Created by a concurrent first call, or exists but is no longer the default: make it so.
    }
    return setDefault(namespace, DEFAULT_NAME);
  }

  /** Makes {@code name} the default (and active), unsetting the previous default. */
  Environment setDefault(String namespace, String name) {
    store
        .update(
            namespace,
            name,
            environment -> {
              EnvironmentSpec spec = EnvironmentMapper.spec(environment);
              spec.setIsDefault(true);
              spec.setIsActive(true);
              environment.setSpec(spec);
              RestResources.setAnnotation(environment, DEFAULT_SINCE, clock.instant().toString());
              RestResources.touch(environment, clock.instant());
              return environment;
            })
        .orElseThrow(() -> ApiException.notFound("Environment " + EnvironmentService.idOf(name)));
    converge(namespace);
    return store
        .read(namespace, name)
        .orElseThrow(() -> ApiException.notFound("Environment " + EnvironmentService.idOf(name)));
  }

  /** Unmarks every default but the most recently marked one. */
  void converge(String namespace) {
    for (int round = 0; round < CONVERGE_ROUNDS; round++) {
      List<Environment> marked =
          store.readAll(namespace).stream()
              .filter(EnvironmentMapper::isDefault)
              .sorted(LATEST_MARK_FIRST)
              .toList();
      if (marked.size() <= 1) {
        return;
      }
      Environment winner = marked.getFirst();
      for (Environment loser : marked.subList(1, marked.size())) {
        store.update(
            namespace,
            loser.getMetadata().getName(),
            fresh -> {
              // Marked again since we read it: it may be the newest now; the next round decides.
              if (LATEST_MARK_FIRST.compare(fresh, winner) > 0) {
                EnvironmentMapper.spec(fresh).setIsDefault(false);
                RestResources.setAnnotation(fresh, DEFAULT_SINCE, null);
              }
              return fresh;
            });
      }
    }
    log.warn(
        "Default environment of namespace {} still contended after {} rounds",
        namespace,
        CONVERGE_ROUNDS);
  }

  private static Instant markedAt(Environment environment) {
    String mark = RestResources.annotation(environment, DEFAULT_SINCE);
    if (mark == null) {
      return Instant.EPOCH; // marked default with kubectl: older than any REST call
    }
    try {
      return Instant.parse(mark);
    } catch (DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }
}
