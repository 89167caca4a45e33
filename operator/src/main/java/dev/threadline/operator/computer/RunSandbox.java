package dev.threadline.operator.computer;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
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
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/**
 * The sandbox of one run: the {@link SandboxPod} in the environment's image on the thread's
 * workspace, its credential Secret (read by the worker only) and its NetworkPolicy (connections
 * only from the worker). The agent loop runs in the worker; nothing in these objects holds a model
 * key, an API key or a cluster credential.
 *
 * @param port where the sandbox's API listens
 * @param bindAddress the address it binds (all addresses on a Pod network)
 * @param worker the worker's Pods, the sandbox's only callers
 * @param network the cluster's ranges, denied to the sandbox even with internet access
 */
public record RunSandbox(
    Run run,
    AgentEnvironment environment,
    int port,
    String bindAddress,
    SandboxCallers worker,
    AgentPodSettings settings,
    ClusterNetwork network) {

  public Pod pod() {
    return new SandboxPod(
            metadata(AgentObjects.podName(run)),
            environment.image(),
            port,
            bindAddress,
            AgentObjects.sandboxCredentialName(run),
            new VolumeBuilder()
                .withName(SandboxPod.WORKSPACE_VOLUME)
                .withNewPersistentVolumeClaim()
                .withClaimName(AgentObjects.workspaceClaimName(run.getSpec().getThread()))
                .endPersistentVolumeClaim()
                .build(),
            settings.tmpVolume(SandboxPod.TMP_VOLUME),
            EnvironmentValuesEnv.of(environment.spec()),
            "Never",
            settings.deadline(),
            settings.resources())
        .build();
  }

  public Secret credential() {
    return SandboxCredential.secret(metadata(AgentObjects.sandboxCredentialName(run)));
  }

  public NetworkPolicy networkPolicy() {
    return SandboxNetworkPolicy.of(
        metadata(AgentObjects.networkPolicyName(run)),
        Map.of(Labels.RUN, AgentObjects.labels(run).get(Labels.RUN)),
        port,
        environment.internetAccess(),
        network,
        List.of(worker));
  }

  /**
   * Removes what guarded a run's sandbox, its credential Secret and NetworkPolicy (by their
   * deterministic names; absent ones are skipped), once its Pod is gone or going. Only for a Run
   * being deleted (the usage finalizer's {@code DeletedRuns}): the Run controller never reconciles
   * those, so its workflow, which removes the sandbox of every run that ended, cannot.
   */
  public static void deleteAccess(KubernetesClient client, Run run) {
    String namespace = run.getMetadata().getNamespace();
    client
        .secrets()
        .inNamespace(namespace)
        .withName(AgentObjects.sandboxCredentialName(run))
        .delete();
    client
        .network()
        .v1()
        .networkPolicies()
        .inNamespace(namespace)
        .withName(AgentObjects.networkPolicyName(run))
        .delete();
  }

  private ObjectMeta metadata(String name) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(run.getMetadata().getNamespace())
        .withLabels(AgentObjects.labels(run))
        .withOwnerReferences(AgentObjects.ownedBy(run))
        .build();
  }
}
