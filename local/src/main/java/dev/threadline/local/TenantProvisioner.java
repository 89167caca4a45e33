package dev.threadline.local;

import dev.threadline.api.auth.ApiKeys;
import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates what a cluster administrator would create by hand: the system namespace, one tenant
 * namespace per user, and a key Secret per API key (holding only the key's hash).
 */
final class TenantProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(TenantProvisioner.class);
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Set<String> RESERVED =
      Set.of("default", "kube-system", "kube-public", "kube-node-lease");

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

  private void ensureNamespace(Namespace namespace) {
    client.resource(namespace).createOr(existing -> existing.update());
  }
}
