package dev.threadline.operator.worker;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.metrics.StartStep;
import dev.threadline.operator.metrics.StartSteps;
import dev.threadline.operator.pool.PoolBinding;
import dev.threadline.operator.pool.PoolLabels;
import dev.threadline.operator.pool.WorkspaceArchives;
import dev.threadline.operator.sandbox.SandboxCredential;
import dev.threadline.operator.sandbox.SandboxPod;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

/**
 * Finds runs' sandboxes in the cluster: the run's sandbox Pod (from a watch of sandbox Pods) once
 * it is ready, at its Pod IP (the process kubelet of local mode reports 127.0.0.1) and the port its
 * spec names; the credential from the run's credential Secret, read once per run.
 */
public final class PodSandboxLocator implements SandboxLocator, AutoCloseable {
  private final KubernetesClient client;
  private final SharedIndexInformer<Pod> pods;
  private final Map<String, String> credentials = new ConcurrentHashMap<>();

  /**
   * Claimed Pods handed over in this process before the watch brought them, by namespace/name;
   * dropped once the watch has them.
   */
  private final Map<String, Pod> handedOver = new ConcurrentHashMap<>();

  private final SandboxClient sandboxClient;
  private final PoolBinding binding;
  private final WorkspaceArchives archives;
  private final OperatorMetrics metrics;
  private final StartSteps steps;
  private final Clock clock;
  private volatile BiConsumer<String, String> readyListener = (namespace, run) -> {};

  /**
   * @param namespace the namespace to watch, or null for all
   * @param metrics where the time to a serving sandbox is recorded, or null
   */
  public PodSandboxLocator(
      KubernetesClient client,
      String namespace,
      SandboxClient sandboxClient,
      OperatorMetrics metrics,
      Clock clock,
      WorkspaceArchives archives) {
    this.client = client;
    this.sandboxClient = sandboxClient;
    this.binding = new PoolBinding(client);
    this.archives = archives;
    this.metrics = metrics;
    this.steps = metrics == null ? StartSteps.NONE : new StartSteps(metrics);
    this.clock = clock;
    var resources =
        namespace == null ? client.pods().inAnyNamespace() : client.pods().inNamespace(namespace);
    this.pods =
        resources
            .withLabelSelector(AgentObjects.podSelector())
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Pod pod) {
                    changed(pod);
                  }

                  @Override
                  public void onUpdate(Pod before, Pod pod) {
                    changed(pod);
                  }

                  @Override
                  public void onDelete(Pod pod, boolean unknownFinalState) {}
                });
  }

  /** Tells {@code listener} (namespace, Run name) whenever a run's sandbox Pod is ready. */
  public void onReady(BiConsumer<String, String> listener) {
    this.readyListener = listener;
  }

  /**
   * A run's claimed sandbox Pod (and its credential), handed over by the operator of this process
   * the moment the claim was recorded: located from now on, before the watch brings it.
   */
  public void handedOver(Run run, Pod pod, Optional<String> credential) {
    handedOver.put(
        Cache.namespaceKeyFunc(pod.getMetadata().getNamespace(), pod.getMetadata().getName()), pod);
    credential.ifPresent(known -> credentials.put(run.getMetadata().getUid(), known));
  }

  @Override
  public Optional<SandboxAddress> locate(Run run) {
    Pod pod = pod(run);
    if (pod == null || !ready(pod)) {
      return Optional.empty();
    }
    Optional<Integer> port = SandboxPod.port(pod);
    if (port.isEmpty()) {
      return Optional.empty(); // an agent Pod of the retiring path
    }
    return credential(run)
        .map(credential -> SandboxAddress.of(pod.getStatus().getPodIP(), port.get(), credential));
  }

  /**
   * A claimed pool sandbox takes the run's credential and variables (once: a sandbox that refuses
   * the pool credential was bound already, by a worker that stopped). Records how long the run
   * waited for a serving sandbox.
   */
  @Override
  public void bind(Run run, SandboxAddress sandbox) {
    Pod pod = pod(run);
    if (pod != null && PoolLabels.isClaimed(pod)) {
      // Side by side: the environment's values, and the proof of the pool's credential.
      Future<Map<String, String>> values =
          SideBySide.start(
              () -> steps.time(StartStep.BIND_READS, () -> binding.environmentValues(pod)));
      Optional<SandboxAddress> unbound =
          steps.time(StartStep.BIND_VERIFY, () -> provenUnbound(pod, sandbox));
      boolean bound =
          unbound.isPresent()
              && steps.time(
                  StartStep.BIND_POST,
                  () -> sandboxClient.bind(unbound.get(), sandbox.credential(), join(values)));
      if (!bound) {
        values.cancel(true);
        sandboxClient.verify(sandbox); // bound already (a worker that took the run over)
      }
    } else {
      // A foreign process on the sandbox's address fails the run here, saying so, rather than
      // with a 401 at its first tool call.
      sandboxClient.verify(sandbox);
    }
    if (metrics != null && run.getStatus() != null && run.getStatus().getStart() != null) {
      Timestamps.parse(run.getStatus().getStartedAt())
          .map(started -> Duration.between(started, clock.instant()))
          .filter(took -> !took.isNegative())
          .ifPresent(took -> metrics.sandboxReady(run.getStatus().getStart(), took));
    }
  }

  /**
   * The sandbox's address with the pool's credential, once the sandbox proved it holds it — before
   * the bind sends the run's credential and variables, so never to a process that only holds the
   * sandbox's address; empty when it holds another (bound already, or not the sandbox at all).
   */
  private Optional<SandboxAddress> provenUnbound(Pod pod, SandboxAddress sandbox) {
    String held = binding.poolCredential(pod).orElseThrow(PodSandboxLocator::poolCredentialGone);
    Optional<SandboxAddress> proven = proves(sandbox, held);
    if (proven.isPresent()) {
      return proven;
    }
    // An outdated pool credential (its environment was made anew), or a sandbox holding another.
    String fresh =
        binding.rereadPoolCredential(pod).orElseThrow(PodSandboxLocator::poolCredentialGone);
    return fresh.equals(held) ? Optional.empty() : proves(sandbox, fresh);
  }

  private Optional<SandboxAddress> proves(SandboxAddress sandbox, String pool) {
    SandboxAddress unbound = new SandboxAddress(sandbox.base(), pool);
    try {
      sandboxClient.verify(unbound);
      return Optional.of(unbound);
    } catch (SandboxException refused) {
      return Optional.empty();
    }
  }

  private static SandboxException poolCredentialGone() {
    return new SandboxException("the pool's credential is gone");
  }

  private static <T> T join(Future<T> started) {
    try {
      return SideBySide.join(started);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SandboxException("interrupted while binding the sandbox");
    }
  }

  @Override
  public Optional<byte[]> keptWorkspace(Run run) {
    return archives.read(run.getMetadata().getNamespace(), run.getSpec().getThread());
  }

  @Override
  public void keepWorkspace(Run run, SandboxAddress sandbox) {
    if (archives.keeps(run)) {
      archives.write(
          run.getMetadata().getNamespace(),
          run.getSpec().getThread(),
          sandboxClient.archive(sandbox));
    }
  }

  @Override
  public boolean keepForGiveBack(Run run, SandboxAddress sandbox) {
    if (archives.keeps(run)) {
      return archives.write(
          run.getMetadata().getNamespace(),
          run.getSpec().getThread(),
          sandboxClient.archive(sandbox));
    }
    // Not kept in the store: a cold sandbox on the thread's workspace claim, which stays.
    return !RunStatus.START_CLAIMED.equals(run.getStatus().getStart());
  }

  @Override
  public void release(Run run) {
    // The sandbox itself goes with the run's end: the Run controller's workflow deletes it.
    credentials.remove(run.getMetadata().getUid());
    handedOver.remove(
        Cache.namespaceKeyFunc(run.getMetadata().getNamespace(), AgentObjects.podName(run)));
  }

  private Pod pod(Run run) {
    String key =
        Cache.namespaceKeyFunc(run.getMetadata().getNamespace(), AgentObjects.podName(run));
    Pod watched = pods.getStore().getByKey(key);
    return watched != null ? watched : handedOver.get(key);
  }

  private Optional<String> credential(Run run) {
    String uid = run.getMetadata().getUid();
    String known = credentials.get(uid);
    if (known != null) {
      return Optional.of(known);
    }
    Optional<String> read =
        SandboxCredential.read(
            client
                .secrets()
                .inNamespace(run.getMetadata().getNamespace())
                .withName(AgentObjects.sandboxCredentialName(run))
                .get());
    read.ifPresent(credential -> credentials.put(uid, credential));
    return read;
  }

  private void changed(Pod pod) {
    handedOver.remove(
        Cache.namespaceKeyFunc(pod.getMetadata().getNamespace(), pod.getMetadata().getName()));
    if (ready(pod)) {
      // The sandbox Pod is owned by its Run (and named after it, unless claimed from a pool).
      Objects.requireNonNullElse(
              pod.getMetadata().getOwnerReferences(),
              java.util.List.<io.fabric8.kubernetes.api.model.OwnerReference>of())
          .stream()
          .filter(owner -> "Run".equals(owner.getKind()))
          .forEach(
              owner -> readyListener.accept(pod.getMetadata().getNamespace(), owner.getName()));
    }
  }

  public static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getPodIP() != null
        && "Running".equals(pod.getStatus().getPhase())
        && Objects.requireNonNullElse(
                pod.getStatus().getConditions(),
                java.util.List.<io.fabric8.kubernetes.api.model.PodCondition>of())
            .stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Override
  public void close() {
    pods.close();
  }
}
