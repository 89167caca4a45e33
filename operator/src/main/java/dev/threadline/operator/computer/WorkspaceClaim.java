package dev.threadline.operator.computer;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import java.util.Map;

/**
 * A thread's workspace: one ReadWriteOnce claim per thread, mounted at {@code /workspace} by each
 * of its agent Pods, so a follow-up sees the files earlier runs left. Owned by the Thread: it lives
 * as long as the conversation. Runs of one thread never overlap (the API refuses a message while
 * one runs), so one node at a time is enough.
 */
public final class WorkspaceClaim {
  private WorkspaceClaim() {}

  public static PersistentVolumeClaim of(ConversationThread thread, AgentPodSettings settings) {
    String threadName = thread.getMetadata().getName();
    return of(
        AgentObjects.workspaceClaimName(threadName),
        thread,
        Map.of(
            Labels.MANAGED_BY,
            Labels.MANAGER,
            AgentObjects.COMPONENT,
            "workspace",
            Labels.THREAD,
            AgentObjects.labelValue(threadName)),
        settings);
  }

  /**
   * A workspace claim of the configured size and class, named and labelled as given, owned by
   * {@code owner}.
   */
  public static PersistentVolumeClaim of(
      String name, HasMetadata owner, Map<String, String> labels, AgentPodSettings settings) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(owner.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(AgentObjects.ownedBy(owner))
        .endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(
            settings.workspaceStorageClass().isEmpty() ? null : settings.workspaceStorageClass())
        .withNewResources()
        .addToRequests("storage", settings.workspaceSize())
        .endResources()
        .endSpec()
        .build();
  }
}
