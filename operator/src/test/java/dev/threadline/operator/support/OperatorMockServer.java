package dev.threadline.operator.support;

import dev.threadline.crds.CrdManifests;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.InputStream;
import java.util.List;

/** Prepares fabric8's CRUD mock server the way a cluster with Threadline's CRDs installed looks. */
public final class OperatorMockServer {
  private static final List<String> CRDS =
      List.of(
          "agents",
          "environments",
          "threads",
          "runs",
          "schedules",
          "containers",
          "usageledgers",
          "webhookdeliveries");

  private OperatorMockServer() {}

  /** Registers every Threadline CRD so that the mock honours their status subresource. */
  public static void registerCrds(KubernetesMockServer server, KubernetesClient client) {
    for (String plural : CRDS) {
      try (InputStream manifest =
          OperatorMockServer.class.getResourceAsStream(CrdManifests.resourceOf(plural))) {
        CustomResourceDefinition crd =
            client.apiextensions().v1().customResourceDefinitions().load(manifest).item();
        server.expectCustomResource(CustomResourceDefinitionContext.fromCrd(crd));
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot read the CRD of " + plural, e);
      }
    }
  }
}
