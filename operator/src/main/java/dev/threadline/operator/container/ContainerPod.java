package dev.threadline.operator.container;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerObjects;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.computer.AgentPod;
import dev.threadline.operator.computer.AgentPodSettings;
import dev.threadline.operator.computer.PodSecurity;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A container's Pod: the runner's {@code serve} command in the environment's image, locked down as
 * agent Pods are ({@link PodSecurity}, no service-account token, no service links), listening on
 * the port the operator chose, with the access token mounted read-only. A persistent container's
 * workspace is its claim; an ephemeral one's is an emptyDir that lives as long as the Pod. The
 * kubelet restarts the runner if it stops; a readiness probe on {@code /health} makes the Pod ready
 * only once the file API answers.
 *
 * @param image the environment's image (or the runner image)
 */
record ContainerPod(
    Container container, String image, int port, String bindAddress, AgentPodSettings settings) {
  static final String COMPONENT = "container";
  static final String ACCESS_DIR = "/var/run/threadline/access";

  Pod build() {
    String name = container.getMetadata().getName();
    return new PodBuilder()
        .withNewMetadata()
        .withName(ContainerObjects.podName(name))
        .withNamespace(container.getMetadata().getNamespace())
        .withLabels(labels(container, COMPONENT))
        .withOwnerReferences(AgentObjects.ownedBy(container))
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Always")
        .withAutomountServiceAccountToken(false)
        .withEnableServiceLinks(false)
        .withTerminationGracePeriodSeconds(10L)
        .withSecurityContext(PodSecurity.pod())
        .addNewContainer()
        .withName(AgentObjects.CONTAINER)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withCommand(AgentPod.RUNNER)
        .withArgs(
            "serve",
            "--workspace",
            AgentPod.WORKSPACE,
            "--port",
            Integer.toString(port),
            "--address",
            bindAddress,
            "--token-file",
            ACCESS_DIR + "/" + ContainerObjects.TOKEN_KEY)
        .withWorkingDir(AgentPod.WORKSPACE)
        // Tools keep caches under HOME; /tmp is writable.
        .addNewEnv()
        .withName("HOME")
        .withValue("/tmp")
        .endEnv()
        .addNewPort()
        .withName("files")
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
        .withResources(settings.resources())
        .withSecurityContext(PodSecurity.container())
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .withVolumeMounts(
            new VolumeMountBuilder()
                .withName("access")
                .withMountPath(ACCESS_DIR)
                .withReadOnly(true)
                .build(),
            new VolumeMountBuilder()
                .withName("workspace")
                .withMountPath(AgentPod.WORKSPACE)
                .build(),
            new VolumeMountBuilder().withName("tmp").withMountPath("/tmp").build())
        .endContainer()
        .withVolumes(
            new VolumeBuilder()
                .withName("access")
                .withNewSecret()
                .withSecretName(ContainerObjects.accessSecretName(name))
                .withDefaultMode(0440)
                .endSecret()
                .build(),
            workspace(),
            settings.tmpVolume("tmp"))
        .endSpec()
        .build();
  }

  private Volume workspace() {
    if (Boolean.TRUE.equals(container.getSpec().getPersistent())) {
      return new VolumeBuilder()
          .withName("workspace")
          .withNewPersistentVolumeClaim()
          .withClaimName(ContainerObjects.workspaceClaimName(container.getMetadata().getName()))
          .endPersistentVolumeClaim()
          .build();
    }
    return new VolumeBuilder()
        .withName("workspace")
        .withNewEmptyDir()
        .withSizeLimit(settings.workspaceSize())
        .endEmptyDir()
        .build();
  }

  /** Labels of every object made for a container; {@code component} tells them apart. */
  static Map<String, String> labels(Container container, String component) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.MANAGED_BY, Labels.MANAGER);
    labels.put(AgentObjects.COMPONENT, component);
    labels.put(ContainerObjects.CONTAINER_LABEL, container.getMetadata().getName());
    return labels;
  }

  /** The label selector of the operator's container Pod informer. */
  static String podSelector() {
    return Labels.MANAGED_BY
        + "="
        + Labels.MANAGER
        + ","
        + AgentObjects.COMPONENT
        + "="
        + COMPONENT;
  }
}
