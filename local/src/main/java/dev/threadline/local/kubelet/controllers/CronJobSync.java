package dev.threadline.local.kubelet.controllers;

import dev.threadline.core.schedule.CronSchedule;
import dev.threadline.local.kubelet.support.Describe;
import dev.threadline.local.kubelet.support.KubeTime;
import dev.threadline.local.kubelet.support.Owners;
import dev.threadline.local.kubelet.support.StatusUpdates;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of one CronJob, following the CronJob controller: start the most recent run that is
 * due (only that one, however many were missed, and not if it is later than {@code
 * startingDeadlineSeconds}), honour {@code suspend} and {@code concurrencyPolicy}, prune finished
 * Jobs beyond the history limits, and report {@code lastScheduleTime}, {@code lastSuccessfulTime}
 * and the active Jobs.
 */
final class CronJobSync {
  private static final Logger LOG = LoggerFactory.getLogger(CronJobSync.class);
  private static final int DEFAULT_SUCCESSFUL_HISTORY = 3;
  private static final int DEFAULT_FAILED_HISTORY = 1;

  private final KubernetesClient client;
  private final InstantSource clock;
  private final CronJobJobFactory jobs;

  /**
   * Schedules already reported as invalid, so a broken CronJob is logged once, not at every event.
   */
  private final Map<String, String> reportedInvalid = new ConcurrentHashMap<>();

  CronJobSync(KubernetesClient client, InstantSource clock) {
    this.client = client;
    this.clock = clock;
    this.jobs = new CronJobJobFactory(client.getKubernetesSerialization());
  }

  /** Reconciles the CronJob; returns its next scheduled time, when it must run again. */
  Optional<Instant> sync(String namespace, String name) {
    CronJob cronJob = client.batch().v1().cronjobs().inNamespace(namespace).withName(name).get();
    if (cronJob == null || cronJob.getMetadata().getDeletionTimestamp() != null) {
      return Optional.empty();
    }
    String described = Describe.of(cronJob);
    CronSchedule schedule;
    try {
      schedule =
          CronSchedule.parseCronJob(
              cronJob.getSpec().getSchedule(), cronJob.getSpec().getTimeZone());
      reportedInvalid.remove(cronJob.getMetadata().getUid());
    } catch (IllegalArgumentException e) {
      if (!e.getMessage()
          .equals(reportedInvalid.put(cronJob.getMetadata().getUid(), e.getMessage()))) {
        LOG.warn("{} cannot be scheduled: {}", described, e.getMessage());
      }
      return Optional.empty();
    }

    Instant now = clock.instant();
    List<Job> owned =
        new ArrayList<>(
            client.batch().v1().jobs().inNamespace(namespace).list().getItems().stream()
                .filter(job -> Owners.isControlledBy(job, cronJob))
                .toList());
    CronJobStatus previous =
        cronJob.getStatus() == null ? new CronJobStatus() : cronJob.getStatus();
    CronJobStatus status = client.getKubernetesSerialization().clone(previous);
    boolean suspended = Boolean.TRUE.equals(cronJob.getSpec().getSuspend());

    if (!suspended) {
      Instant earliest =
          Optional.ofNullable(KubeTime.parse(previous.getLastScheduleTime()))
              .orElse(KubeTime.parse(cronJob.getMetadata().getCreationTimestamp()));
      Optional<Instant> due = schedule.mostRecent(earliest == null ? Instant.EPOCH : earliest, now);
      if (due.isPresent()) {
        startRun(cronJob, schedule, due.get(), now, owned, status, described);
      }
    }

    pruneHistory(cronJob, owned, described);
    List<Job> active = owned.stream().filter(job -> !JobConditions.isFinished(job)).toList();
    status.setActive(
        active.isEmpty() ? null : active.stream().map(CronJobSync::referenceTo).toList());
    lastSuccess(owned)
        .filter(time -> isAfter(time, previous.getLastSuccessfulTime()))
        .ifPresent(time -> status.setLastSuccessfulTime(KubeTime.format(time)));
    StatusUpdates.replace(
        client, CronJob.class, cronJob, CronJob::getStatus, CronJob::setStatus, status);
    // A suspended CronJob waits for the change that resumes it; the informer brings that.
    return suspended ? Optional.empty() : schedule.nextAfter(now);
  }

  private void startRun(
      CronJob cronJob,
      CronSchedule schedule,
      Instant scheduledTime,
      Instant now,
      List<Job> owned,
      CronJobStatus status,
      String described) {
    Long startingDeadline = cronJob.getSpec().getStartingDeadlineSeconds();
    if (startingDeadline != null
        && KubeTime.plusSeconds(scheduledTime, startingDeadline).isBefore(now)) {
      LOG.info(
          "{} missed the run at {} by more than startingDeadlineSeconds ({}s); skipping it",
          described,
          scheduledTime,
          startingDeadline);
      return;
    }
    List<Job> active = owned.stream().filter(job -> !JobConditions.isFinished(job)).toList();
    String policy =
        cronJob.getSpec().getConcurrencyPolicy() == null
            ? "Allow"
            : cronJob.getSpec().getConcurrencyPolicy();
    String name = CronJobJobFactory.jobName(cronJob.getMetadata().getName(), scheduledTime);
    boolean alreadyStarted =
        owned.stream().anyMatch(job -> job.getMetadata().getName().equals(name));
    if (!alreadyStarted && "Forbid".equals(policy) && !active.isEmpty()) {
      // As Kubernetes does: the run stays due and starts when the active Job ends (within the
      // starting deadline).
      LOG.info(
          "{} run at {} waits: concurrencyPolicy Forbid and {} Job(s) active",
          described,
          scheduledTime,
          active.size());
      return;
    }
    if (!alreadyStarted && "Replace".equals(policy)) {
      for (Job job : active) {
        LOG.info("{} replacing active {}", described, Describe.of(job));
        ChildObjects.deleteJob(client, job);
        owned.remove(job);
      }
    }
    if (!alreadyStarted) {
      ChildObjects.createUnlessTaken(client, jobs.jobFor(cronJob, scheduledTime, schedule.zone()))
          .ifPresentOrElse(
              created -> {
                owned.add(created);
                LOG.info(
                    "{} started {} for its run at {}",
                    described,
                    Describe.of(created),
                    scheduledTime);
              },
              // Created before (by an earlier controller): the run has started, which is all that
              // matters.
              () -> LOG.debug("{} Job {} exists already", described, name));
    }
    status.setLastScheduleTime(KubeTime.format(scheduledTime));
  }

  private void pruneHistory(CronJob cronJob, List<Job> owned, String described) {
    int successfulLimit =
        Optional.ofNullable(cronJob.getSpec().getSuccessfulJobsHistoryLimit())
            .orElse(DEFAULT_SUCCESSFUL_HISTORY);
    int failedLimit =
        Optional.ofNullable(cronJob.getSpec().getFailedJobsHistoryLimit())
            .orElse(DEFAULT_FAILED_HISTORY);
    prune(
        owned,
        owned.stream().filter(job -> JobConditions.isTrue(job, JobConditions.COMPLETE)).toList(),
        successfulLimit,
        described);
    prune(
        owned,
        owned.stream().filter(job -> JobConditions.isTrue(job, JobConditions.FAILED)).toList(),
        failedLimit,
        described);
  }

  private void prune(List<Job> owned, List<Job> finished, int keep, String described) {
    List<Job> oldestFirst =
        finished.stream().sorted(Comparator.comparing(CronJobSync::startedAt)).toList();
    for (Job job : oldestFirst.subList(0, Math.max(0, oldestFirst.size() - keep))) {
      LOG.info("{} deleting old {} (history limit {})", described, Describe.of(job), keep);
      ChildObjects.deleteJob(client, job);
      owned.remove(job);
    }
  }

  private static Optional<Instant> lastSuccess(List<Job> owned) {
    return owned.stream()
        .filter(job -> JobConditions.isTrue(job, JobConditions.COMPLETE))
        .map(job -> KubeTime.parse(job.getStatus().getCompletionTime()))
        .filter(Objects::nonNull)
        .max(Comparator.naturalOrder());
  }

  private static boolean isAfter(Instant time, String previous) {
    Instant before = KubeTime.parse(previous);
    return before == null || time.isAfter(before);
  }

  private static Instant startedAt(Job job) {
    if (job.getStatus() != null && job.getStatus().getStartTime() != null) {
      return KubeTime.parse(job.getStatus().getStartTime());
    }
    Instant created = KubeTime.parse(job.getMetadata().getCreationTimestamp());
    return created == null ? Instant.EPOCH : created;
  }

  private static ObjectReference referenceTo(Job job) {
    return new ObjectReferenceBuilder()
        .withApiVersion("batch/v1")
        .withKind("Job")
        .withName(job.getMetadata().getName())
        .withNamespace(job.getMetadata().getNamespace())
        .withUid(job.getMetadata().getUid())
        .withResourceVersion(job.getMetadata().getResourceVersion())
        .build();
  }
}
