package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentVariable;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.environment.ValueSource;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.operator.container.ContainerSettings;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import dev.threadline.operator.support.SandboxPolicies;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSandboxTest {
  private static final ContainerSettings CALLERS =
      ContainerSettings.fromEnvironment(
          Map.of(
              "THREADLINE_API_SERVER_NAMESPACE", "tl-system",
              "THREADLINE_WORKER_POD_LABELS", "app=worker"));
  private static final ClusterNetwork NETWORK =
      new ClusterNetwork(List.of("10.42.0.0/16"), List.of(), List.of());

  @Test
  void theSandboxPodHoldsNoPlatformCredential() {
    Pod pod = sandbox(false).pod();

    assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
    Container runner = pod.getSpec().getContainers().get(0);
    assertThat(runner.getArgs())
        .contains("serve", "--token-file")
        .noneMatch(a -> a.contains("run.json"));
    List<String> names = runner.getEnv().stream().map(EnvVar::getName).toList();
    assertThat(names).contains("PROJECT_TOKEN", "HOME").noneMatch(n -> n.startsWith("THREADLINE_"));
    // The only Secrets it sees: the environment's own values and its own credential.
    assertThat(runner.getEnv())
        .filteredOn(env -> env.getValueFrom() != null)
        .allSatisfy(env ->
            assertThat(env.getValueFrom().getSecretKeyRef().getName()).isEqualTo("env-vars"));
    assertThat(pod.getSpec().getVolumes())
        .filteredOn(volume -> volume.getSecret() != null)
        .extracting(Volume::getSecret)
        .singleElement()
        .satisfies(secret -> assertThat(secret.getSecretName()).isEqualTo("run-1-sandbox"));
    assertThat(pod.getSpec().getVolumes())
        .noneMatch(volume -> volume.getProjected() != null || volume.getHostPath() != null);
  }

  @Test
  void onlyTheWorkerMayConnectToARunsSandbox() {
    NetworkPolicy policy = sandbox(false).networkPolicy();

    SandboxPolicies.admitsOnly(policy, 8080, "tl-system", Map.entry("app", "worker"));
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    // With internet access it still may not reach the cluster or link-local addresses.
    NetworkPolicy internet = sandbox(true).networkPolicy();
    assertThat(internet.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(internet.getSpec().getEgress()).isEqualTo(EgressRules.internet(NETWORK));
  }

  @Test
  void theSandboxKeepsTheAgentPodsStorageBounds() {
    AgentPodSettings settings = AgentPodSettings.defaults();
    Pod pod = sandbox(false).pod();

    assertThat(pod.getSpec().getContainers().get(0).getResources()).isEqualTo(settings.resources());
    assertThat(pod.getSpec().getVolumes())
        .filteredOn(volume -> volume.getName().equals("tmp"))
        .singleElement()
        .satisfies(
            tmp -> assertThat(tmp.getEmptyDir().getSizeLimit()).isEqualTo(settings.tmpSize()));
  }

  @Test
  void eachSandboxHasItsOwnRandomCredential() {
    String first = sandbox(true).credential().getData().get("token");
    String second = sandbox(true).credential().getData().get("token");
    assertThat(java.util.Base64.getDecoder().decode(first)).hasSizeGreaterThanOrEqualTo(43);
    assertThat(first).isNotEqualTo(second);
  }

  private static RunSandbox sandbox(boolean internet) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder().withName("run-1").withNamespace("ns").withUid("u-1").build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc");
    run.setSpec(spec);
    EnvironmentSpec environment = new EnvironmentSpec();
    environment.setEnvironmentVariables(
        List.of(variable("PROJECT_TOKEN"), variable("THREADLINE_MODEL_API_KEY")));
    McpServer mcp = new McpServer();
    mcp.setType("http");
    mcp.setName("docs");
    mcp.setUrl("https://mcp.example.com");
    mcp.setBearerTokenFrom(source("mcp-token"));
    environment.setMcpServers(List.of(mcp));
    return new RunSandbox(
        run,
        new AgentEnvironment("env", "image:1", internet, environment),
        8080,
        "0.0.0.0",
        CALLERS.worker(),
        AgentPodSettings.defaults(),
        NETWORK);
  }

  private static EnvironmentVariable variable(String name) {
    EnvironmentVariable variable = new EnvironmentVariable();
    variable.setKey(name);
    variable.setValueFrom(source(name.toLowerCase()));
    return variable;
  }

  private static ValueSource source(String key) {
    SecretKeyReference ref = new SecretKeyReference();
    ref.setName("env-vars");
    ref.setKey(key);
    ValueSource source = new ValueSource();
    source.setSecretKeyRef(ref);
    return source;
  }
}
