package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.support.Describe;
import dev.threadline.local.kubelet.support.KubeTime;
import dev.threadline.local.kubelet.support.StatusUpdates;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of one Job, for the shape Threadline uses: one Pod at a time until one succeeds
 * (parallelism 1, completions 1). A failed Pod is replaced until more than {@code backoffLimit}
 * (default 6) have failed; {@code activeDeadlineSeconds} and {@code suspend} stop the active Pod;
 * {@code ttlSecondsAfterFinished} deletes the finished Job. Pods are found by their controller-uid
 * label, so after a restart existing Pods are adopted, not duplicated.
 */
final class JobSync {
  private static final Logger LOG = LoggerFactory.getLogger(JobSync.class);
  static final int DEFAULT_BACKOFF_LIMIT = 6;
  static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";

  private final KubernetesClient client;
  private final InstantSource clock;
  private final JobPodFactory pods;

  JobSync(KubernetesClient client, InstantSource clock) {
    this.client = client;
    this.clock = clock;
    this.pods = new JobPodFactory(client.getKubernetesSerialization());
  }

  /** Reconciles the Job; returns when it must be looked at again (its deadline or its TTL). */
  Optional<Instant> sync(String namespace, String name) {
    Job job = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    if (job == null || job.getMetadata().getDeletionTimestamp() != null) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    String described = Describe.of(job);
    List<Pod> owned =
        client
            .pods()
            .inNamespace(namespace)
            .withLabel(JobPodFactory.BATCH_CONTROLLER_UID, job.getMetadata().getUid())
            .list()
            .getItems();
    List<Pod> active = owned.stream().filter(JobSync::isActive).toList();

    if (JobConditions.isFinished(job)) {
      deleteAll(active, described);
      return expireAfterTtl(job, now);
    }

    JobStatus previous = job.getStatus() == null ? new JobStatus() : job.getStatus();
    JobStatus status = client.getKubernetesSerialization().clone(previous);
    int succeeded = (int) owned.stream().filter(pod -> "Succeeded".equals(phaseOf(pod))).count();
    int failed =
        Math.max(
            orZero(previous.getFailed()),
            (int) owned.stream().filter(pod -> "Failed".equals(phaseOf(pod))).count());
    status.setSucceeded(succeeded);
    status.setFailed(failed);

    Optional<Instant> wakeAt = Optional.empty();
    if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      deleteAll(active, described);
      active = List.of();
      JobConditions.set(
          status, JobConditions.SUSPENDED, true, "JobSuspended", "Job suspended", now);
    } else {
      if (JobConditions.find(status, JobConditions.SUSPENDED)
          .map(c -> "True".equals(c.getStatus()))
          .orElse(false)) {
        JobConditions.set(status, JobConditions.SUSPENDED, false, "JobResumed", "Job resumed", now);
        status.setStartTime(null);
      }
      if (status.getStartTime() == null) {
        status.setStartTime(KubeTime.format(now));
      }
      Instant startTime = KubeTime.parse(status.getStartTime());
      int backoffLimit =
          job.getSpec().getBackoffLimit() == null
              ? DEFAULT_BACKOFF_LIMIT
              : job.getSpec().getBackoffLimit();
      Long deadlineSeconds = job.getSpec().getActiveDeadlineSeconds();
      Instant deadline =
          deadlineSeconds == null ? null : KubeTime.plusSeconds(startTime, deadlineSeconds);

      if (succeeded >= 1) {
        deleteAll(active, described);
        active = List.of();
        JobConditions.set(
            status,
            JobConditions.SUCCESS_CRITERIA_MET,
            true,
            "CompletionsReached",
            "Reached expected number of succeeded pods",
            now);
        JobConditions.set(
            status,
            JobConditions.COMPLETE,
            true,
            "CompletionsReached",
            "Reached expected number of succeeded pods",
            now);
        status.setCompletionTime(KubeTime.format(now));
        LOG.info("{} complete", described);
      } else if (failed > backoffLimit) {
        deleteAll(active, described);
        active = List.of();
        fail(status, BACKOFF_LIMIT_EXCEEDED, "Job has reached the specified backoff limit", now);
        LOG.info("{} failed: {} failed pod(s), backoffLimit {}", described, failed, backoffLimit);
      } else if (deadline != null && !now.isBefore(deadline)) {
        deleteAll(active, described);
        active = List.of();
        fail(status, DEADLINE_EXCEEDED, "Job was active longer than specified deadline", now);
        LOG.info("{} failed: active longer than {} s", described, deadlineSeconds);
      } else {
        if (active.isEmpty()) {
          active = create(job, described).map(List::of).orElse(List.of());
        }
        wakeAt = Optional.ofNullable(deadline);
      }
    }
    status.setActive(active.size());
    status.setReady((int) active.stream().filter(JobSync::isReady).count());
    status.setTerminating(0);
    StatusUpdates.replace(client, Job.class, job, Job::getStatus, Job::setStatus, status);
    return JobConditions.isFinished(withStatus(job, status))
        ? expireAfterTtl(withStatus(job, status), now)
        : wakeAt;
  }

  private Optional<Pod> create(Job job, String described) {
    Pod pod = pods.podFor(job);
    Optional<Pod> created = ChildObjects.createUnlessTaken(client, pod);
    if (created.isPresent()) {
      LOG.info("{} created {}", described, Describe.of(created.get()));
    } else {
      // The random name was taken; the next reconcile picks another.
      LOG.debug("{} pod name {} taken", described, pod.getMetadata().getName());
    }
    return created;
  }

  private Optional<Instant> expireAfterTtl(Job job, Instant now) {
    Integer ttl = job.getSpec().getTtlSecondsAfterFinished();
    Optional<Instant> finishedAt = JobConditions.finishedAt(job);
    if (ttl == null || finishedAt.isEmpty()) {
      return Optional.empty();
    }
    Instant expiry = KubeTime.plusSeconds(finishedAt.get(), ttl);
    if (now.isBefore(expiry)) {
      return Optional.of(expiry);
    }
    LOG.info("{} finished {} s ago (ttlSecondsAfterFinished); deleting it", Describe.of(job), ttl);
    ChildObjects.deleteJob(client, job);
    return Optional.empty();
  }

  private void deleteAll(List<Pod> active, String described) {
    for (Pod pod : active) {
      LOG.info("{} deleting its active {}", described, Describe.of(pod));
      client
          .pods()
          .inNamespace(pod.getMetadata().getNamespace())
          .withName(pod.getMetadata().getName())
          .delete();
    }
  }

  private static void fail(JobStatus status, String reason, String message, Instant now) {
    JobConditions.set(status, JobConditions.FAILURE_TARGET, true, reason, message, now);
    JobConditions.set(status, JobConditions.FAILED, true, reason, message, now);
  }

  private static Job withStatus(Job job, JobStatus status) {
    Job copy = new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder(job).build();
    copy.setStatus(status);
    return copy;
  }

  private static boolean isActive(Pod pod) {
    String phase = phaseOf(pod);
    return pod.getMetadata().getDeletionTimestamp() == null
        && !"Succeeded".equals(phase)
        && !"Failed".equals(phase);
  }

  private static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static String phaseOf(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }
}
