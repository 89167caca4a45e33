package dev.threadline.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.local.kubeapi.EmbeddedApiSettings;
import dev.threadline.local.kubeapi.EmbeddedKubernetesApi;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The chart's RBAC as the local mode installs it, evaluated by the embedded API: the operator may
 * bind the trigger's ClusterRole and nothing more powerful, the api-server may not write status,
 * and a user's kubeconfig identity reaches its own namespace only.
 */
class ChartRbacTest {
  private static EmbeddedKubernetesApi api;
  private static KubernetesClient admin;
  private static ChartRbac chart;

  @BeforeAll
  static void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    admin = api.newClient();
    new TenantProvisioner(admin, LocalMode.SYSTEM_NAMESPACE)
        .provision(Map.of("key-alice", "alice", "key-bob", "bob"));
    chart = ChartRbac.load(admin);
    chart.install(admin);
  }

  @AfterAll
  static void stop() {
    admin.close();
    api.close();
  }

  private static KubernetesClient as(String component) {
    return api.newClient(
        api.issueServiceAccountToken(
            LocalMode.SYSTEM_NAMESPACE, chart.serviceAccountOf(component)));
  }

  private static boolean can(
      KubernetesClient client, String verb, String namespace, String resource, String sub) {
    SelfSubjectAccessReview review =
        new SelfSubjectAccessReviewBuilder()
            .withNewSpec()
            .withNewResourceAttributes()
            .withVerb(verb)
            .withNamespace(namespace)
            .withGroup("threadline.dev")
            .withResource(resource)
            .withSubresource(sub)
            .endResourceAttributes()
            .endSpec()
            .build();
    return client.resource(review).create().getStatus().getAllowed();
  }

  private static RoleBinding binding(String name, String role) {
    return new RoleBindingBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("alice")
        .endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
        .addNewSubject()
        .withKind("ServiceAccount")
        .withName(name)
        .withNamespace("alice")
        .endSubject()
        .build();
  }

  @Test
  void theOperatorBindsTheTriggerRoleButNoMorePowerfulOne() {
    try (KubernetesClient operator = as("operator")) {
      assertThat(operator.resource(binding("trigger", "threadline-trigger")).create()).isNotNull();
      assertThatThrownBy(() -> operator.resource(binding("escalated", "cluster-admin")).create())
          .isInstanceOfSatisfying(
              KubernetesClientException.class,
              e -> {
                assertThat(e.getCode()).isEqualTo(403);
                assertThat(e.getMessage())
                    .contains("is attempting to grant RBAC permissions not currently held");
              });
      assertThat(can(operator, "update", "alice", "runs", "status")).isTrue();
    }
  }

  @Test
  void theApiServerReadsStatusButDoesNotWriteIt() {
    try (KubernetesClient apiServer = as("api-server")) {
      assertThat(can(apiServer, "create", "bob", "threads", "")).isTrue();
      assertThat(can(apiServer, "get", "bob", "runs", "status")).isTrue();
      assertThat(can(apiServer, "update", "bob", "runs", "status")).isFalse();
      assertThatThrownBy(() -> apiServer.rbac().clusterRoles().list())
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
  }

  @Test
  void aUsersIdentityReachesItsOwnNamespaceOnly() {
    try (KubernetesClient alice = api.newClient(api.issueUserToken("alice"))) {
      assertThat(can(alice, "create", "alice", "threads", "")).isTrue();
      assertThat(can(alice, "create", "bob", "threads", "")).isFalse();
      assertThat(alice.configMaps().inNamespace("alice").list().getItems()).isNotNull();
      assertThatThrownBy(() -> alice.configMaps().inNamespace("bob").list())
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
  }
}
