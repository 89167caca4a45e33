package dev.threadline.operator.computer;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.thread.ConversationThread;
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
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withName(AgentObjects.workspaceClaimName(threadName))
        .withNamespace(thread.getMetadata().getNamespace())
        .withLabels(Map.of(Labels.MANAGED_BY, Labels.MANAGER, AgentObjects.COMPONENT, "workspace",
            Labels.THREAD, AgentObjects.labelValue(threadName)))
        .withOwnerReferences(AgentObjects.ownedBy(thread))
        .endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(settings.workspaceStorageClass().isEmpty() ? null : settings.workspaceStorageClass())
        .withNewResources().addToRequests("storage", settings.workspaceSize()).endResources()
        .endSpec()
        .build();
  }
}
