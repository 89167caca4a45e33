package dev.threadline.local;

import dev.threadline.api.auth.ApiKeys;
import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates what a cluster administrator would create by hand: the system namespace, one tenant
 * namespace per user with the RBAC that opens it to that user alone, and a key Secret per API key
 * (holding only the key's hash).
 */
final class TenantProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(TenantProvisioner.class);
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Set<String> RESERVED =
      Set.of("default", "kube-system", "kube-public", "kube-node-lease");

  /** The Role and the prefix of the RoleBindings that open a user's namespace to the user. */
  static final String USER_ROLE = "threadline-user";

  /** The chart's user-facing ClusterRoles (rbac.aggregatedRoles), bound per namespace here. */
  static final String EDIT_ROLE = "threadline-edit";

  static final String VIEW_ROLE = "threadline-view";

  private final KubernetesClient client;
  private final String systemNamespace;

  TenantProvisioner(KubernetesClient client, String systemNamespace) {
    this.client = client;
    this.systemNamespace = systemNamespace;
  }

  /** Registers every key; returns each user's namespace. */
  Map<String, String> provision(Map<String, String> keysToUsers) {
    ensureNamespace(
        new NamespaceBuilder().withNewMetadata().withName(systemNamespace).endMetadata().build());
    Map<String, String> namespaces = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : keysToUsers.entrySet()) {
      String user = entry.getValue();
      String namespace = namespaces.computeIfAbsent(user, TenantProvisioner::namespaceFor);
      ensureNamespace(
          new NamespaceBuilder()
              .withNewMetadata()
              .withName(namespace)
              .addToLabels(Labels.TENANT, "true")
              .addToAnnotations(Labels.USER_ANNOTATION, user)
              .endMetadata()
              .build());
      client
          .resource(ApiKeys.keySecret(systemNamespace, user, entry.getKey()))
          .createOr(existing -> existing.update());
      grantNamespace(user, namespace);
      LOG.info("User {} has namespace {}", user, namespace);
    }
    return namespaces;
  }

  /** The user id itself when it is a usable namespace name, else a stable hash-derived one. */
  static String namespaceFor(String user) {
    if (DNS_LABEL.matcher(user).matches()
        && !RESERVED.contains(user)
        && !user.startsWith("threadline-")) {
      return user;
    }
    return "user-" + Sha256.hex(user).substring(0, 12);
  }

  /**
   * What the user's own kubeconfig may do, in its namespace only: the Threadline kinds through the
   * chart's user-facing ClusterRoles ({@value #EDIT_ROLE}, {@value #VIEW_ROLE}), and the built-in
   * kinds a user of a namespace works with through a Role of its own.
   */
  private void grantNamespace(String user, String namespace) {
    Role role =
        new RoleBuilder()
            .withNewMetadata()
            .withName(USER_ROLE)
            .withNamespace(namespace)
            .endMetadata()
            .addNewRule()
            .withApiGroups("")
            .withResources("configmaps", "secrets")
            .withVerbs(
                "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection")
            .endRule()
            .addNewRule()
            .withApiGroups("")
            .withResources("pods", "pods/log", "events", "persistentvolumeclaims")
            .withVerbs("get", "list", "watch")
            .endRule()
            .addNewRule()
            .withApiGroups("batch")
            .withResources("jobs", "cronjobs")
            .withVerbs("get", "list", "watch")
            .endRule()
            .build();
    client.resource(role).createOr(existing -> existing.update());
    bind(user, namespace, USER_ROLE, "Role", USER_ROLE);
    bind(user, namespace, USER_ROLE + "-edit", "ClusterRole", EDIT_ROLE);
    bind(user, namespace, USER_ROLE + "-view", "ClusterRole", VIEW_ROLE);
  }

  private void bind(String user, String namespace, String name, String roleKind, String role) {
    RoleBinding binding =
        new RoleBindingBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .endMetadata()
            .withNewRoleRef("rbac.authorization.k8s.io", roleKind, role)
            .addNewSubject()
            .withApiGroup("rbac.authorization.k8s.io")
            .withKind("User")
            .withName(user)
            .endSubject()
            .build();
    client.resource(binding).createOr(existing -> existing.update());
  }

  private void ensureNamespace(Namespace namespace) {
    client.resource(namespace).createOr(existing -> existing.update());
  }
}
