package dev.threadline.operator.computer;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
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
   * The thread's claim, made when missing. A thread archived after its retention loses its claim
   * (see {@code ThreadArchiver}) and comes back, when a follow-up revives it, as a new object (a
   * new uid): a claim of its earlier life still being removed is waited for (this attempt fails and
   * is retried), one left behind is adopted, so the garbage collector does not remove it under the
   * run.
   */
  public static PersistentVolumeClaim ensure(
      KubernetesClient client, ConversationThread thread, AgentPodSettings settings) {
    PersistentVolumeClaim wanted = of(thread, settings);
    PersistentVolumeClaim found = IdempotentCreate.createOrGet(client, wanted);
    String uid = thread.getMetadata().getUid();
    boolean ours =
        uid == null
            || found.getMetadata().getOwnerReferences().stream()
                .anyMatch(owner -> uid.equals(owner.getUid()));
    if (ours) {
      return found;
    }
    if (found.getMetadata().getDeletionTimestamp() != null) {
      throw new IllegalStateException(
          "the workspace claim "
              + found.getMetadata().getName()
              + " of the thread's earlier life is still being removed; trying again");
    }
    return client
        .persistentVolumeClaims()
        .inNamespace(found.getMetadata().getNamespace())
        .withName(found.getMetadata().getName())
        .edit(claim -> {
          claim.getMetadata().setOwnerReferences(wanted.getMetadata().getOwnerReferences());
          return claim;
        });
  }

  /** Deletes the thread's claim, if it has one (its files go with it). */
  public static void delete(KubernetesClient client, String namespace, String threadName) {
    client
        .persistentVolumeClaims()
        .inNamespace(namespace)
        .withName(AgentObjects.workspaceClaimName(threadName))
        .delete();
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
