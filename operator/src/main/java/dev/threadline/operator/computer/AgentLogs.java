package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent Pods whose logs the operator follows, one per running computer Run. New events and the
 * end of a log wake the Run's reconciler through an event source (throttled, see {@link
 * FlushThrottle}); the reconciler is the only writer of the Run's status.
 */
public final class AgentLogs implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentLogs.class);

  /** How often, at most, a running run's status is written with new events. */
  static final Duration FLUSH_INTERVAL = Duration.ofMillis(75);

  private final PodLogFollower follower;
  private final SimpleInboundEventSource<Run> wakeUps =
      new SimpleInboundEventSource<>("agent-logs");
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("agent-log-flush").factory());
  private final Map<ResourceID, FollowedPod> followed = new ConcurrentHashMap<>();

  public AgentLogs(PodLogFollower follower) {
    this.follower = follower;
  }

  /** Registered with the Run controller: its events make the Run reconcile. */
  public SimpleInboundEventSource<Run> eventSource() {
    return wakeUps;
  }

  /** The Pod's followed log, started from its first line if it is not followed yet. */
  FollowedPod follow(ResourceID run, Pod pod) {
    String uid = pod.getMetadata().getUid();
    return followed.compute(
        run,
        (id, current) -> {
          if (current != null && current.podUid().equals(uid)) {
            return current;
          }
          if (current != null) {
            current.stop();
          }
          return start(id, pod);
        });
  }

  /** Follows the Pod's log again from its start, after the stream ended early. */
  FollowedPod refollow(ResourceID run, Pod pod) {
    stop(run);
    return follow(run, pod);
  }

  Optional<FollowedPod> get(ResourceID run) {
    return Optional.ofNullable(followed.get(run));
  }

  void stop(ResourceID run) {
    FollowedPod current = followed.remove(run);
    if (current != null) {
      current.stop();
    }
  }

  private FollowedPod start(ResourceID run, Pod pod) {
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    FollowedPod followedPod =
        new FollowedPod(
            pod.getMetadata().getUid(),
            new FlushThrottle(scheduler, FLUSH_INTERVAL, () -> wakeUps.propagateEvent(run)));
    LOG.info(
        "Run({}/{}) following the log of Pod({}/{})",
        run.getNamespace().orElse(""),
        run.getName(),
        namespace,
        name);
    followedPod.attach(follower.follow(namespace, name, AgentObjects.CONTAINER, followedPod));
    return followedPod;
  }

  @Override
  public void close() {
    followed.keySet().forEach(this::stop);
    scheduler.shutdownNow();
  }
}
