package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerObjects;
import dev.threadline.operator.computer.AgentObjects;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The container's access token: 32 random bytes in a Secret of its own, mounted into its Pod (the
 * runner checks it) and read by the api-server (which sends it). Made once, never rotated while the
 * container lives; deleted with the container.
 */
final class ContainerAccessSecret {
  private static final SecureRandom RANDOM = new SecureRandom();

  private ContainerAccessSecret() {}

  static Secret of(Container container) {
    byte[] token = new byte[32];
    RANDOM.nextBytes(token);
    return new SecretBuilder()
        .withNewMetadata()
        .withName(ContainerObjects.accessSecretName(container.getMetadata().getName()))
        .withNamespace(container.getMetadata().getNamespace())
        .withLabels(ContainerPod.labels(container, "access"))
        .withOwnerReferences(AgentObjects.ownedBy(container))
        .endMetadata()
        .withType("Opaque")
        // data, not stringData: every API (and the test mocks) stores it as given.
        .addToData(
            ContainerObjects.TOKEN_KEY,
            Base64.getEncoder()
                .encodeToString(
                    Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(token)
                        .getBytes(StandardCharsets.US_ASCII)))
        .build();
  }
}
