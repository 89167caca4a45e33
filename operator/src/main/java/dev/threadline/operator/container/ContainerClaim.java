package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerStatus;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import dev.threadline.operator.pool.PoolClaimant;
import dev.threadline.operator.pool.PoolLabels;
import dev.threadline.operator.pool.PoolSandboxBind;
import dev.threadline.operator.pool.WarmPools;
import dev.threadline.operator.sandbox.SandboxCredential;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collection;
import java.util.Optional;

/**
 * A container's start from its environment's warm pool: claims a ready pool Pod for it (exclusive,
 * {@link WarmPools}) and binds it to the container — the container's access token and the
 * environment's variables and secrets, over the sandbox's {@code POST /bind} ({@link
 * PoolSandboxBind}). Its access Secret and NetworkPolicy (for the claimed Pod's port) are made
 * before the claim, so the Pod is never unguarded. Only an ephemeral container claims: a persistent
 * one's workspace is a claim that a Pod started before it cannot mount.
 */
final class ContainerClaim {
  private final KubernetesClient client;
  private final WarmPools pools;
  private final PoolSandboxBind bind;
  private final OperatorSettings settings;

  ContainerClaim(
      KubernetesClient client, WarmPools pools, PoolSandboxBind bind, OperatorSettings settings) {
    this.client = client;
    this.pools = pools;
    this.bind = bind;
    this.settings = settings;
  }

  /** Whether the container may start from a pool: an ephemeral one whose environment has one. */
  static boolean wanted(Container container, AgentEnvironment environment) {
    return !Boolean.TRUE.equals(container.getSpec().getPersistent())
        && WarmPools.hasPool(environment);
  }

  /**
   * A pool Pod claimed for the container, still to be bound ({@link #bind}); empty when none was
   * claimable.
   */
  Optional<Pod> claim(Container container, AgentEnvironment environment) {
    String namespace = container.getMetadata().getNamespace();
    return pools.claim(
        new PoolClaimant(
            namespace,
            "Container(" + namespace + "/" + container.getMetadata().getName() + ")",
            ContainerPod.labels(container, ContainerPod.COMPONENT),
            AgentObjects.ownedBy(container),
            null),
        environment,
        port -> guard(container, environment, port));
  }

  /**
   * A pool Pod the container claimed whose claim its status does not record yet (the claim
   * happened, the bind or the status write did not): adopted, to be bound (again, harmlessly),
   * never claimed twice. One being deleted (given up after its bind kept failing) is not.
   */
  Optional<Pod> adopt(Container container, Collection<Pod> owned) {
    ContainerStatus status = container.getStatus();
    if (status != null && status.getStart() != null) {
      return Optional.empty();
    }
    return owned.stream()
        .filter(PoolLabels::isClaimed)
        .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
        .findFirst();
  }

  /**
   * Binds the claimed Pod to the container's access token and its environment's values.
   *
   * @throws RuntimeException when the sandbox could not be bound
   */
  void bind(Container container, Pod pod) {
    String token =
        SandboxCredential.read(
                client
                    .secrets()
                    .inNamespace(container.getMetadata().getNamespace())
                    .withName(ContainerObjects.accessSecretName(container.getMetadata().getName()))
                    .get())
            .orElseThrow(() -> new IllegalStateException("the container's access token is gone"));
    bind.bind(pod, token);
  }

  /** The container's access Secret, and its NetworkPolicy for a Pod listening on {@code port}. */
  private void guard(Container container, AgentEnvironment environment, int port) {
    IdempotentCreate.createOrGet(client, ContainerAccessSecret.of(container));
    client
        .resource(
            ContainerNetworkPolicy.of(
                container,
                port,
                environment.internetAccess(),
                settings.containers(),
                settings.network()))
        .createOr(existing -> existing.update());
  }
}
