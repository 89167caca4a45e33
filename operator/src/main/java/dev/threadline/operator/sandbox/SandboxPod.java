package dev.threadline.operator.sandbox;

import dev.threadline.core.containers.SandboxExit;
import dev.threadline.core.containers.SandboxProof;
import dev.threadline.operator.computer.PodSecurity;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one shape of a sandbox Pod, for a run's agent and for a container alike: the runner's {@code
 * serve} mode in the environment's image, listening on {@code port}, with its credential mounted
 * read-only as a file; locked down ({@link PodSecurity}, no service-account token, no service
 * links); the workspace and a scratch {@code /tmp} its only writable places. A readiness probe on
 * {@code /health} makes the Pod ready only once the API answers. Nothing of the platform enters it:
 * its environment is the environment's own variables and secrets, and HOME.
 *
 * @param metadata the Pod's name, namespace, labels and owner
 * @param credentialSecret the Secret made by {@link SandboxCredential}
 * @param workspace the volume named {@value #WORKSPACE_VOLUME} mounted at {@value #WORKSPACE}
 * @param tmp the size-limited volume named {@value #TMP_VOLUME} mounted at {@code /tmp}
 * @param env the environment's variables (names starting THREADLINE_ and HOME are dropped)
 * @param restartPolicy {@code Always} for a container, {@code Never} for a run
 * @param deadline the Pod's {@code activeDeadlineSeconds}, or null for none
 */
public record SandboxPod(
    ObjectMeta metadata,
    String image,
    int port,
    String bindAddress,
    String credentialSecret,
    Volume workspace,
    Volume tmp,
    List<EnvVar> env,
    String restartPolicy,
    Duration deadline,
    ResourceRequirements resources) {
  public static final String RUNNER = "/opt/threadline/bin/runner";
  public static final String WORKSPACE = "/workspace";
  public static final String WORKSPACE_VOLUME = "workspace";
  public static final String TMP_VOLUME = "tmp";
  public static final String CREDENTIAL_DIR = "/var/run/threadline/access";
  public static final String CREDENTIAL_VOLUME = "access";
  public static final String CONTAINER = "runner";
  public static final String PORT_NAME = "files";

  public Pod build() {
    return new PodBuilder()
        .withMetadata(
            new ObjectMetaBuilder(metadata)
                // Which mounted file is the credential (not its value): a kubelet that reads this
                // (local mode's) counts the Pod ready only once its answer proves it.
                .addToAnnotations(
                    SandboxProof.READINESS_ANNOTATION,
                    CREDENTIAL_VOLUME + "/" + SandboxCredential.KEY)
                .build())
        .withNewSpec()
        .withRestartPolicy(restartPolicy)
        .withAutomountServiceAccountToken(false)
        .withEnableServiceLinks(false)
        .withActiveDeadlineSeconds(deadline == null ? null : deadline.toSeconds())
        .withTerminationGracePeriodSeconds(10L)
        .withSecurityContext(PodSecurity.pod())
        .addNewContainer()
        .withName(CONTAINER)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withCommand(RUNNER)
        .withArgs(
            "serve",
            "--workspace",
            WORKSPACE,
            "--port",
            Integer.toString(port),
            "--address",
            bindAddress,
            "--token-file",
            CREDENTIAL_DIR + "/" + SandboxCredential.KEY)
        .withWorkingDir(WORKSPACE)
        .withEnv(environment())
        .addNewPort()
        .withName(PORT_NAME)
        .withContainerPort(port)
        .withProtocol("TCP")
        .endPort()
        .withNewReadinessProbe()
        .withNewHttpGet()
        .withPath("/health")
        .withPort(new IntOrString(port))
        .endHttpGet()
        .withPeriodSeconds(2)
        .withFailureThreshold(3)
        .endReadinessProbe()
        .withResources(resources)
        .withSecurityContext(PodSecurity.container())
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .withVolumeMounts(
            new VolumeMountBuilder()
                .withName(CREDENTIAL_VOLUME)
                .withMountPath(CREDENTIAL_DIR)
                .withReadOnly(true)
                .build(),
            new VolumeMountBuilder().withName(WORKSPACE_VOLUME).withMountPath(WORKSPACE).build(),
            new VolumeMountBuilder().withName(TMP_VOLUME).withMountPath("/tmp").build())
        .endContainer()
        .withVolumes(
            new VolumeBuilder()
                .withName(CREDENTIAL_VOLUME)
                .withNewSecret()
                .withSecretName(credentialSecret)
                .withDefaultMode(0440)
                .endSecret()
                .build(),
            workspace,
            tmp)
        .endSpec()
        .build();
  }

  /**
   * The same Pod for a warm pool (docs/warm-pools.md): the mounted credential is the pool's, which
   * opens nothing but the one {@code POST /bind} that installs a run's own credential.
   */
  public Pod buildAwaitingBind() {
    Pod pod = build();
    List<String> args = pod.getSpec().getContainers().getFirst().getArgs();
    args.set(args.indexOf("--token-file"), "--bind-token-file");
    return pod;
  }

  /** The port a sandbox Pod's API listens on, as its spec says; empty for another Pod. */
  public static Optional<Integer> port(Pod pod) {
    return pod.getSpec() == null
        ? Optional.empty()
        : pod.getSpec().getContainers().stream()
            .flatMap(container -> container.getPorts().stream())
            .filter(port -> PORT_NAME.equals(port.getName()))
            .map(ContainerPort::getContainerPort)
            .findFirst();
  }

  /**
   * Whether a sandbox Pod failed because its runner found its port taken by another program for
   * longer than it retries ({@link SandboxExit#PORT_TAKEN}): it never served, and the same sandbox
   * on another port would.
   */
  public static boolean portTaken(Pod pod) {
    PodStatus status = pod.getStatus();
    if (status == null || !"Failed".equals(status.getPhase())) {
      return false;
    }
    return Objects.requireNonNullElse(status.getContainerStatuses(), List.<ContainerStatus>of())
        .stream()
        .filter(container -> CONTAINER.equals(container.getName()))
        .map(ContainerStatus::getState)
        .filter(state -> state != null && state.getTerminated() != null)
        .anyMatch(state ->
            Integer.valueOf(SandboxExit.PORT_TAKEN).equals(state.getTerminated().getExitCode()));
  }

  private List<EnvVar> environment() {
    // The environment's first, so that a variable of the same name cannot replace HOME; no
    // THREADLINE_ variable: the platform's settings (and keys) have no business in a sandbox.
    List<EnvVar> all = new ArrayList<>(env);
    all.removeIf(variable ->
        variable.getName().equals("HOME") || variable.getName().startsWith("THREADLINE_"));
    // Tools keep caches under HOME; /tmp is writable and not part of the workspace's diffs.
    all.add(new EnvVar("HOME", "/tmp", null));
    return all;
  }
}
