package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.container.Container;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.computer.AgentPodSettings;
import dev.threadline.operator.sandbox.SandboxPod;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.util.LinkedHashMap;
import java.util.List;
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

  /**
   * The start of the label selector of the informers of a container's objects; the component
   * label's value ends it.
   */
  static final String SELECTOR_PREFIX =
      Labels.MANAGED_BY + "=" + Labels.MANAGER + "," + AgentObjects.COMPONENT + "=";

  Pod build() {
    String name = container.getMetadata().getName();
    return new SandboxPod(
            new ObjectMetaBuilder()
                .withName(ContainerObjects.podName(name))
                .withNamespace(container.getMetadata().getNamespace())
                .withLabels(labels(container, COMPONENT))
                .withOwnerReferences(AgentObjects.ownedBy(container))
                .build(),
            image,
            port,
            bindAddress,
            ContainerObjects.accessSecretName(name),
            workspace(),
            settings.tmpVolume(SandboxPod.TMP_VOLUME),
            List.of(),
            "Always",
            null,
            settings.resources())
        .build();
  }

  private Volume workspace() {
    if (Boolean.TRUE.equals(container.getSpec().getPersistent())) {
      return new VolumeBuilder()
          .withName(SandboxPod.WORKSPACE_VOLUME)
          .withNewPersistentVolumeClaim()
          .withClaimName(ContainerObjects.workspaceClaimName(container.getMetadata().getName()))
          .endPersistentVolumeClaim()
          .build();
    }
    return new VolumeBuilder()
        .withName(SandboxPod.WORKSPACE_VOLUME)
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
}
