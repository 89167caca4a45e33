package dev.threadline.operator.pool;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentObjects;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * A thread's workspace between runs when its sandboxes come from a warm pool. A pool sandbox starts
 * before anyone knows the thread, so it cannot mount the thread's workspace claim; instead the
 * worker keeps the workspace as a zip (the sandbox's {@code GET /workspace/archive}) in a Secret of
 * the thread's, {@code workspace-<id>-archive}, after every run that {@link #keeps}, and puts it
 * back ({@code PUT /workspace/archive}) before the next run starts — claimed or cold, so the files
 * follow the thread whichever way its sandbox came. A Secret rather than a ConfigMap: a workspace
 * may hold what its agent wrote of the user's secrets.
 *
 * <p>A Secret holds at most 1 MiB: a zip over {@value #MAX_BYTES} bytes is not kept; the Secret
 * then says so ({@value #TOO_LARGE}), the thread's later runs start cold on its workspace claim,
 * and the claimed run's changes beyond what the claim holds are lost — docs/warm-pools.md.
 */
public final class WorkspaceArchives {
  public static final int MAX_BYTES = 900 * 1024;
  static final String DATA = "workspace.zip";
  static final String TOO_LARGE = "tooLarge";

  private final KubernetesClient client;

  public WorkspaceArchives(KubernetesClient client) {
    this.client = client;
  }

  /** {@code thread-7f3k} → {@code workspace-7f3k-archive}. */
  public static String name(String thread) {
    return AgentObjects.workspaceClaimName(thread) + "-archive";
  }

  /**
   * Whether a pool sandbox can carry the thread's files: it has a kept archive, or it has no files
   * anywhere yet (no workspace claim: no run of it started cold).
   */
  public boolean claimable(String namespace, String thread) {
    Secret archive = secret(namespace, thread);
    if (archive != null) {
      return !isTooLarge(archive);
    }
    PersistentVolumeClaim claim =
        client
            .persistentVolumeClaims()
            .inNamespace(namespace)
            .withName(AgentObjects.workspaceClaimName(thread))
            .get();
    return claim == null;
  }

  /**
   * Whether {@code run}'s workspace is kept when its loop ends: the run was claimed, its thread
   * keeps an archive already, or its environment has a warm pool — a run that started cold (the
   * pool was empty) then leaves the archive its thread's next run needs to claim a sandbox.
   */
  public boolean keeps(Run run) {
    String namespace = run.getMetadata().getNamespace();
    String thread = run.getSpec().getThread();
    if (run.getStatus() != null && RunStatus.START_CLAIMED.equals(run.getStatus().getStart())
        || secret(namespace, thread) != null) {
      return true;
    }
    ConversationThread owner =
        client.resources(ConversationThread.class).inNamespace(namespace).withName(thread).get();
    return owner != null
        && AgentEnvironment.resourceOf(client, run, owner)
            .filter(environment -> WarmPoolReconciler.size(environment) > 0)
            .isPresent();
  }

  /** The kept zip; empty when there is none or it was too large to keep. */
  public Optional<byte[]> read(String namespace, String thread) {
    Secret archive = secret(namespace, thread);
    if (archive == null || archive.getData() == null || archive.getData().get(DATA) == null) {
      return Optional.empty();
    }
    return Optional.of(Base64.getDecoder().decode(archive.getData().get(DATA)));
  }

  /** Keeps {@code zip} as the thread's workspace, or records that it was too large. */
  public boolean write(String namespace, String thread, byte[] zip) {
    ConversationThread owner =
        client.resources(ConversationThread.class).inNamespace(namespace).withName(thread).get();
    if (owner == null) {
      return false; // the thread is gone: nothing to keep it for
    }
    boolean fits = zip.length <= MAX_BYTES;
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(name(thread))
            .withNamespace(namespace)
            .withLabels(Map.of(Labels.MANAGED_BY, Labels.MANAGER))
            .withOwnerReferences(AgentObjects.ownedBy(owner))
            .endMetadata()
            .withType("Opaque")
            .withData(
                fits
                    ? Map.of(DATA, Base64.getEncoder().encodeToString(zip))
                    : Map.of(TOO_LARGE, Base64.getEncoder().encodeToString("true".getBytes())))
            .build();
    client.resource(secret).createOr(existing -> existing.update());
    return fits;
  }

  private Secret secret(String namespace, String thread) {
    return client.secrets().inNamespace(namespace).withName(name(thread)).get();
  }

  private static boolean isTooLarge(Secret archive) {
    return archive.getData() != null && archive.getData().containsKey(TOO_LARGE);
  }
}
