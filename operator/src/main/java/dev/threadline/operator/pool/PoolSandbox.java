package dev.threadline.operator.pool;

import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.computer.AgentPodSettings;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.sandbox.SandboxCallers;
import dev.threadline.operator.sandbox.SandboxCredential;
import dev.threadline.operator.sandbox.SandboxNetworkPolicy;
import dev.threadline.operator.sandbox.SandboxPod;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;
import java.util.Map;

/**
 * The objects of one environment's warm pool: its Pods (the {@link SandboxPod} shape in the
 * environment's image, serving before anyone claims them, with no user identity, no variables, an
 * empty workspace, and the pool's credential, which opens only the one bind), the pool's credential
 * Secret (read by the worker only), and a NetworkPolicy that lets the worker in and nothing out.
 * Everything is owned by the Environment, so it goes with it.
 *
 * @param egressOnClaim whether the environment's runs may reach the internet once claimed (local
 *     mode, which cannot change a running sandbox's network, starts pool Pods with it: see
 *     docs/warm-pools.md)
 */
public record PoolSandbox(
    Environment environment,
    String image,
    boolean egressOnClaim,
    SandboxCallers worker,
    AgentPodSettings settings,
    ClusterNetwork network) {

  /** Annotation on a pool Pod: the egress its run will have ({@code internet} or {@code none}). */
  public static final String EGRESS_ON_CLAIM = "threadline.dev/egress-on-claim";

  /**
   * @param name the Pod's name, unique in the namespace
   */
  public Pod pod(String name, int port, String bindAddress) {
    ObjectMeta metadata = metadata(name, PoolLabels.unclaimed(environment));
    metadata.setAnnotations(
        Map.of(
            PoolLabels.ENVIRONMENT_ANNOTATION,
            environment.getMetadata().getName(),
            EGRESS_ON_CLAIM,
            egressOnClaim ? "internet" : "none"));
    return new SandboxPod(
            metadata,
            image,
            port,
            bindAddress,
            PoolLabels.accessName(environment.getMetadata().getName()),
            new VolumeBuilder()
                .withName(SandboxPod.WORKSPACE_VOLUME)
                .withNewEmptyDir()
                .withSizeLimit(settings.workspaceSize())
                .endEmptyDir()
                .build(),
            settings.tmpVolume(SandboxPod.TMP_VOLUME),
            List.of(),
            "Never",
            null, // set when claimed: the run's deadline counts from the claim
            settings.resources())
        .buildAwaitingBind();
  }

  public Secret credential() {
    return SandboxCredential.secret(
        metadata(PoolLabels.accessName(environment.getMetadata().getName()), Map.of()));
  }

  /** The worker may connect to unclaimed pool Pods; they may connect nowhere. */
  public NetworkPolicy networkPolicy(int port) {
    NetworkPolicy policy =
        SandboxNetworkPolicy.of(
            metadata(PoolLabels.accessName(environment.getMetadata().getName()), Map.of()),
            PoolLabels.unclaimedSelector(environment),
            port,
            false,
            network,
            List.of(worker));
    policy.getSpec().setEgress(List.of()); // not even DNS: nothing runs before the claim
    return policy;
  }

  private ObjectMeta metadata(String name, Map<String, String> labels) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(environment.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(AgentObjects.ownedBy(environment))
        .build();
  }
}
