package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.kube.builds.StoredBuildLogs;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code <environment>-build-logs} ({@link StoredBuildLogs}, which the api-server reads):
 * the (bounded) log of the last build and of the last test build, kept for {@code GET
 * .../build/logs} after their Pods and Jobs are gone. Owned by the Environment.
 */
final class BuildLogConfigMap {
  private final KubernetesClient client;

  BuildLogConfigMap(KubernetesClient client) {
    this.client = client;
  }

  void store(Environment environment, BuildKind kind, String log, OwnerReference owner) {
    String namespace = environment.getMetadata().getNamespace();
    String name = StoredBuildLogs.configMapName(environment.getMetadata().getName());
    var existing = client.configMaps().inNamespace(namespace).withName(name);
    if (existing.get() == null) {
      ConfigMap created =
          new ConfigMapBuilder()
              .withNewMetadata()
              .withName(name)
              .withNamespace(namespace)
              .withLabels(BuildLabels.forEnvironment(environment.getMetadata().getName()))
              .withOwnerReferences(List.of(owner))
              .endMetadata()
              .withData(Map.of(kind.logKey(), log))
              .build();
      client
          .configMaps()
          .inNamespace(namespace)
          .resource(created)
          .createOr(ignored -> mergeKey(namespace, name, kind, log));
      return;
    }
    mergeKey(namespace, name, kind, log);
  }

  /** A JSON merge patch of one key: the other kind's log stays as it is. */
  private ConfigMap mergeKey(String namespace, String name, BuildKind kind, String log) {
    String json =
        client.getKubernetesSerialization().asJson(Map.of("data", Map.of(kind.logKey(), log)));
    return client
        .configMaps()
        .inNamespace(namespace)
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), json);
  }
}
