package dev.threadline.operator.pool;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.WorkspaceArchiveStore;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentObjects;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Optional;

/**
 * A thread's workspace between runs when its sandboxes come from a warm pool. A pool sandbox starts
 * before anyone knows the thread, so it cannot mount the thread's workspace claim; instead the
 * worker keeps the workspace as a zip (the sandbox's {@code GET /workspace/archive}) in the history
 * store, after every run that {@link #keeps}, and puts it back ({@code PUT /workspace/archive})
 * before the next run starts — claimed or cold, so the files follow the thread whichever way its
 * sandbox came.
 *
 * <p>A zip over the limit (THREADLINE_WORKSPACE_ARCHIVE_LIMIT, default 256 MiB) is not kept: the
 * store then keeps an empty archive that says so (a zip is never empty), the thread's later runs
 * start cold on its workspace claim, and the claimed run's changes beyond what the claim holds are
 * lost — docs/warm-pools.md.
 */
public final class WorkspaceArchives {
  private final KubernetesClient client;
  private final WorkspaceArchiveStore store;
  private final Clock clock;
  private final long maxBytes;

  public WorkspaceArchives(
      KubernetesClient client, WorkspaceArchiveStore store, Clock clock, long maxBytes) {
    this.client = client;
    this.store = store;
    this.clock = clock;
    this.maxBytes = maxBytes;
  }

  /**
   * Whether a pool sandbox can carry the thread's files: it has a kept archive, or it has no files
   * anywhere yet (no workspace claim: no run of it started cold).
   */
  public boolean claimable(String namespace, String thread) {
    Optional<byte[]> archive = store.read(namespace, thread);
    if (archive.isPresent()) {
      return archive.get().length > 0;
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
        || store.exists(namespace, thread)) {
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
    return store.read(namespace, thread).filter(zip -> zip.length > 0);
  }

  /** Keeps {@code zip} as the thread's workspace, or records that it was too large. */
  public boolean write(String namespace, String thread, byte[] zip) {
    ConversationThread owner =
        client.resources(ConversationThread.class).inNamespace(namespace).withName(thread).get();
    if (owner == null) {
      return false; // the thread is gone: nothing to keep it for
    }
    boolean fits = zip.length > 0 && zip.length <= maxBytes;
    store.write(namespace, thread, fits ? zip : new byte[0], Timestamps.format(clock.instant()));
    return fits;
  }
}
