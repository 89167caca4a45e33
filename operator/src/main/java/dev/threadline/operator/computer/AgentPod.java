package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import dev.threadline.models.ModelSettings;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent Pod of one run: the runner in the environment's image, with the run's input mounted
 * read-only, the thread's workspace, and a scratch {@code /tmp} — the only writable places, as the
 * root file system is read-only. It runs as an unprivileged user with no service-account token (the
 * runner never talks to Kubernetes) and ends at {@code activeDeadlineSeconds}.
 *
 * @param environment where the run executes: the image, and the variables, secrets and MCP tokens
 *     that become the Pod's environment (see {@link EnvironmentValuesEnv})
 * @param modelKey whether the model key Secret exists for this run
 */
public record AgentPod(
    Run run,
    AgentEnvironment environment,
    boolean modelKey,
    ModelSettings model,
    AgentPodSettings settings) {

  public static final String RUNNER = "/opt/threadline/bin/runner";
  public static final String WORKSPACE = "/workspace";

  public Pod build() {
    return new PodBuilder()
        .withNewMetadata()
        .withName(AgentObjects.podName(run))
        .withNamespace(run.getMetadata().getNamespace())
        .withLabels(AgentObjects.labels(run))
        .withOwnerReferences(AgentObjects.ownedBy(run))
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withAutomountServiceAccountToken(false)
        .withEnableServiceLinks(false)
        .withActiveDeadlineSeconds(settings.deadline().toSeconds())
        .withTerminationGracePeriodSeconds(10L)
        .withSecurityContext(PodSecurity.pod())
        .addNewContainer()
        .withName(AgentObjects.CONTAINER)
        .withImage(environment.image())
        .withImagePullPolicy("IfNotPresent")
        .withCommand(RUNNER)
        .withArgs(
            "run", "--input", RunJson.INPUT_DIR + "/" + RunJson.FILE, "--workspace", WORKSPACE)
        .withWorkingDir(WORKSPACE)
        .withEnv(env())
        .withResources(settings.resources())
        .withSecurityContext(PodSecurity.container())
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .withVolumeMounts(
            new VolumeMountBuilder()
                .withName("input")
                .withMountPath(RunJson.INPUT_DIR)
                .withReadOnly(true)
                .build(),
            new VolumeMountBuilder().withName("workspace").withMountPath(WORKSPACE).build(),
            new VolumeMountBuilder().withName("tmp").withMountPath("/tmp").build())
        .endContainer()
        .withVolumes(
            new VolumeBuilder()
                .withName("input")
                .withNewSecret()
                .withSecretName(AgentObjects.inputSecretName(run))
                .withDefaultMode(0440)
                .withItems(RunInputSecret.items(run))
                .endSecret()
                .build(),
            new VolumeBuilder()
                .withName("workspace")
                .withNewPersistentVolumeClaim()
                .withClaimName(AgentObjects.workspaceClaimName(run.getSpec().getThread()))
                .endPersistentVolumeClaim()
                .build(),
            settings.tmpVolume("tmp"))
        .endSpec()
        .build();
  }

  private List<EnvVar> env() {
    // The environment's first, so that a variable of the same name cannot replace the ones below.
    List<EnvVar> env = new ArrayList<>(EnvironmentValuesEnv.of(environment.spec()));
    env.removeIf(variable ->
        variable.getName().equals("HOME") || variable.getName().startsWith("THREADLINE_MODEL_"));
    // Tools keep caches under HOME; /tmp is writable and not part of the workspace's diffs.
    env.add(new EnvVar("HOME", "/tmp", null));
    env.add(
        new EnvVar(
            ModelSettings.ENV_TIMEOUT_SECONDS, Long.toString(model.timeout().toSeconds()), null));
    if (modelKey) {
      env.add(
          new EnvVarBuilder()
              .withName(ModelSettings.ENV_API_KEY)
              .withNewValueFrom()
              .withNewSecretKeyRef()
              .withName(AgentObjects.modelKeySecretName(run))
              .withKey(ModelKeySecret.KEY)
              .endSecretKeyRef()
              .endValueFrom()
              .build());
    }
    return env;
  }
}
