package dev.threadline.operator.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps a run's {@link RunMemory} in a ConfigMap the Run owns (so it goes with the Run). Every
 * write names the version it read: a worker that lost its claim, and so its memory's version, to
 * another worker gets a conflict and stops — the memory is also the run's fencing token.
 */
final class RunMemoryStore {
  static final String KEY = "memory.json";
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final KubernetesClient client;

  RunMemoryStore(KubernetesClient client) {
    this.client = client;
  }

  /** Another worker wrote the memory since this one read it. */
  static final class Superseded extends RuntimeException {
    Superseded(String run) {
      super("Run " + run + " is being worked on by another worker");
    }
  }

  /** A read memory with the version to write the next one over. */
  record Stored(RunMemory memory, String resourceVersion) {}

  static String name(Run run) {
    return run.getMetadata().getName() + "-memory";
  }

  Optional<Stored> read(Run run) {
    ConfigMap map =
        client.configMaps().inNamespace(run.getMetadata().getNamespace()).withName(name(run)).get();
    if (map == null || map.getData() == null || !map.getData().containsKey(KEY)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Stored(
              JSON.readValue(map.getData().get(KEY), RunMemory.class),
              map.getMetadata().getResourceVersion()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the memory of Run " + name(run) + " is unreadable", e);
    }
  }

  /**
   * Writes {@code memory} over {@code previous} (null: the first write).
   *
   * @throws Superseded when another worker wrote it meanwhile
   */
  Stored write(Run run, Stored previous, RunMemory memory) {
    ConfigMap map =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(name(run))
            .withNamespace(run.getMetadata().getNamespace())
            .withResourceVersion(previous == null ? null : previous.resourceVersion())
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion(run.getApiVersion())
                    .withKind(run.getKind())
                    .withName(run.getMetadata().getName())
                    .withUid(run.getMetadata().getUid())
                    .build())
            .endMetadata()
            .withData(Map.of(KEY, serialise(memory)))
            .build();
    try {
      ConfigMap written =
          previous == null ? client.resource(map).create() : client.resource(map).update();
      return new Stored(memory, written.getMetadata().getResourceVersion());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        throw new Superseded(run.getMetadata().getName());
      }
      throw e;
    }
  }

  private static String serialise(RunMemory memory) {
    try {
      return JSON.writeValueAsString(memory);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a run's memory always serialises", e);
    }
  }
}
