package dev.threadline.operator.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.schedule.FiringNames;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.support.MutableClock;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.Reconciles;
import dev.threadline.operator.support.RecordedEvents;
import dev.threadline.operator.support.StatusWrites;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class ScheduleReconcilerMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  static KubernetesMockServer server;
  static KubernetesClient client;

  @BeforeAll
  static void crds() {
    OperatorMockServer.registerCrds(server, client);
  }

  @Test
  void recurringScheduleBecomesACronJobThatDisablingSuspends() {
    MutableClock clock = new MutableClock(Instant.parse("2026-03-02T07:58:00Z"));
    try (ScheduleOperator ignored = ScheduleOperator.start(client, clock)) {
      Schedule schedule = recurring("recurring", "sched-daily", "0 9 * * 1-5", "Europe/Berlin");
      client.resource(schedule).create();

      CronJob cronJob =
          await().atMost(WAIT).until(() -> cronJob("recurring", "sched-daily"), c -> c != null);
      assertThat(cronJob.getSpec().getSchedule()).isEqualTo("0 9 * * 1-5");
      assertThat(cronJob.getSpec().getTimeZone()).isEqualTo("Europe/Berlin");
      assertThat(cronJob.getSpec().getSuspend()).isFalse();
      assertThat(cronJob.getSpec().getConcurrencyPolicy()).isEqualTo("Forbid");
      assertThat(cronJob.getSpec().getStartingDeadlineSeconds()).isEqualTo(300L);
      assertThat(cronJob.getSpec().getSuccessfulJobsHistoryLimit()).isEqualTo(3);
      assertThat(cronJob.getSpec().getFailedJobsHistoryLimit()).isEqualTo(3);
      assertThat(cronJob.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("Schedule");
            assertThat(owner.getName()).isEqualTo("sched-daily");
            assertThat(owner.getController()).isTrue();
          });
      PodSpec pod = cronJob.getSpec().getJobTemplate().getSpec().getTemplate().getSpec();
      assertThat(pod.getServiceAccountName()).isEqualTo("threadline-trigger");
      assertThat(pod.getAutomountServiceAccountToken()).isTrue();
      assertThat(pod.getRestartPolicy()).isEqualTo("Never");
      assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
      assertThat(pod.getContainers())
          .singleElement()
          .satisfies(container -> {
            assertThat(container.getImage()).isEqualTo(ScheduleOperator.TRIGGER_IMAGE);
            assertThat(container.getCommand()).isEmpty();
            assertThat(container.getArgs()).containsExactly("--schedule", "sched-daily");
            assertThat(container.getEnv())
                .extracting(EnvVar::getName)
                .containsExactly(
                    "THREADLINE_LIMITS_THREADS", "POD_NAMESPACE", "THREADLINE_TRIGGER_JOB_NAME");
            assertThat(container.getEnv().get(0).getValue())
                .isEqualTo(Integer.toString(ScheduleOperator.THREAD_LIMIT));
            assertThat(container.getEnv().get(2).getValueFrom().getFieldRef().getFieldPath())
                .isEqualTo("metadata.labels['batch.kubernetes.io/job-name']");
            assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
            assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
          });
      assertThat(
              client
                  .serviceAccounts()
                  .inNamespace("recurring")
                  .withName("threadline-trigger")
                  .get())
          .isNotNull();
      RoleBinding binding =
          client
              .rbac()
              .roleBindings()
              .inNamespace("recurring")
              .withName("threadline-trigger")
              .get();
      assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
      assertThat(binding.getRoleRef().getName()).isEqualTo("threadline-trigger");
      assertThat(binding.getSubjects())
          .singleElement()
          .satisfies(subject -> assertThat(subject.getName()).isEqualTo("threadline-trigger"));

      // Monday 07:58 UTC is 08:58 in Berlin: next 09:00 Berlin = 08:00 UTC.
      Schedule ready =
          awaitStatus(
              "recurring",
              "sched-daily",
              s -> "2026-03-02T08:00:00Z".equals(s.getStatus().getNextRunAt()));
      assertThat(ready(ready).getStatus()).isEqualTo("True");
      assertThat(ready.getStatus().getCronJob()).isEqualTo("sched-daily");

      client
          .resources(Schedule.class)
          .inNamespace("recurring")
          .withName("sched-daily")
          .edit(s -> {
            s.getSpec().setEnabled(false);
            return s;
          });

      await().atMost(WAIT).until(() -> cronJob("recurring", "sched-daily").getSpec().getSuspend());
      awaitStatus(
          "recurring",
          "sched-daily",
          s -> s.getStatus().getNextRunAt() == null && ready(s).getMessage().contains("disabled"));
    }
  }

  @Test
  void statusIsWrittenAtMostOncePerReconcileAndOnlyWhenItChanged() throws InterruptedException {
    StatusWrites writes = new StatusWrites(server);
    Reconciles reconciles = new Reconciles();
    String path = "/apis/threadline.dev/v1alpha1/namespaces/writes/schedules/sched-writes";
    MutableClock clock = new MutableClock(Instant.parse("2026-03-02T07:58:00Z"));
    try (ScheduleOperator ignored = ScheduleOperator.start(client, clock, reconciles)) {
      client.resource(recurring("writes", "sched-writes", "0 9 * * *", "UTC")).create();
      await().atMost(WAIT).until(() -> cronJob("writes", "sched-writes"), c -> c != null);
      createRun("writes", "sched-writes", "sched-writes-run", "completed");
      awaitStatus(
          "writes", "sched-writes", s -> Long.valueOf(1).equals(s.getStatus().getRunCount()));
      int settled = reconciles.awaitSettled("Schedule", "writes", "sched-writes");

      long written = writes.to(path);
      assertThat(written).isPositive().isLessThanOrEqualTo(settled);

      // A reconcile that finds nothing new (one of its runs touched) writes nothing.
      client
          .resources(Run.class)
          .inNamespace("writes")
          .withName("sched-writes-run")
          .edit(run -> {
            run.getMetadata().setAnnotations(java.util.Map.of("touched", "yes"));
            return run;
          });
      await()
          .atMost(WAIT)
          .until(() -> reconciles.of("Schedule", "writes", "sched-writes") > settled);
      reconciles.awaitSettled("Schedule", "writes", "sched-writes");
      assertThat(writes.to(path)).isEqualTo(written);
    }
  }

  @Test
  void invalidCronIsReportedOnTheReadyCondition() {
    try (ScheduleOperator ignored =
        ScheduleOperator.start(client, new MutableClock(Instant.parse("2026-03-02T00:00:00Z")))) {
      client.resource(recurring("invalid", "sched-bad", "61 * * * *", "UTC")).create();

      Schedule seen =
          awaitStatus("invalid", "sched-bad", s -> !s.getStatus().getConditions().isEmpty());
      assertThat(ready(seen).getStatus()).isEqualTo("False");
      assertThat(ready(seen).getReason()).isEqualTo("InvalidSpec");
      assertThat(ready(seen).getMessage()).startsWith("spec.cronExpression:");
      assertThat(cronJob("invalid", "sched-bad")).isNull();
    }
  }

  @Test
  void oneTimeScheduleFiresOnceAtItsTimeAndNotAgainAfterARestart() {
    Instant at = Instant.parse("2026-06-01T12:00:00Z");
    MutableClock clock = new MutableClock(at.minusSeconds(2));
    String threadName = FiringNames.threadName("sched-once", at);
    try (ScheduleOperator ignored = ScheduleOperator.start(client, clock)) {
      client.resource(oneTime("once", "sched-once", at)).create();

      awaitStatus(
          "once", "sched-once", s -> "2026-06-01T12:00:00Z".equals(s.getStatus().getNextRunAt()));
      assertThat(threadsOf("once", "sched-once")).isEmpty();

      clock.set(at.plusSeconds(1));

      Schedule fired = awaitStatus("once", "sched-once", s -> s.getStatus().getFiredAt() != null);
      assertThat(fired.getStatus().getFiredThread()).isEqualTo(threadName);
      assertThat(fired.getStatus().getNextRunAt()).isNull();
      assertThat(fired.getStatus().getConditions())
          .anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Completed");
            assertThat(c.getStatus()).isEqualTo("True");
          });
      ConversationThread thread =
          client.resources(ConversationThread.class).inNamespace("once").withName(threadName).get();
      assertThat(thread.getMetadata().getLabels()).containsEntry(Labels.SCHEDULE, "sched-once");
      assertThat(thread.getSpec().getTitle()).isEqualTo("Once — 2026-06-01T12:00:00Z");
      Run run =
          client
              .resources(Run.class)
              .inNamespace("once")
              .withName(ThreadRuns.runName(threadName, 1))
              .get();
      assertThat(run.getSpec().getMessage()).isEqualTo("Hello!");
      assertThat(run.getSpec().getSource()).isEqualTo("schedule");
      assertThat(run.getSpec().getSchedule()).isEqualTo("sched-once");
      assertThat(run.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(thread.getMetadata().getUid()));
      awaitStatus("once", "sched-once", s -> Long.valueOf(1).equals(s.getStatus().getRunCount()));
      assertThat(RecordedEvents.about(client, "once", "sched-once"))
          .singleElement()
          .satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Normal");
            assertThat(event.getReason()).isEqualTo("ScheduleFired");
            assertThat(event.getMessage()).contains(threadName);
          });
    }

    clock.advance(Duration.ofMinutes(5));
    // Changed while no operator runs, so that the restarted one must reconcile it (a change made
    // just
    // as it starts could fall between its list and its watch, which the mock server does not
    // replay).
    Schedule changed =
        client
            .resources(Schedule.class)
            .inNamespace("once")
            .withName("sched-once")
            .edit(s -> {
              s.getSpec().setDescription("after the restart");
              return s;
            });
    long generation = changed.getMetadata().getGeneration();
    try (ScheduleOperator restarted = ScheduleOperator.start(client, clock)) {
      awaitStatus(
          "once",
          "sched-once",
          s -> Long.valueOf(generation).equals(s.getStatus().getObservedGeneration()));
      assertThat(threadsOf("once", "sched-once"))
          .extracting(t -> t.getMetadata().getName())
          .containsExactly(threadName);
      assertThat(
              client
                  .resources(Run.class)
                  .inNamespace("once")
                  .withLabel(Labels.SCHEDULE, "sched-once")
                  .list()
                  .getItems())
          .hasSize(1);
    }
  }

  @Test
  void oneTimeScheduleOfAUserAtTheThreadLimitMakesNothingAndSaysWhy() {
    Instant at = Instant.parse("2026-06-01T12:00:00Z");
    for (int i = 0; i < ScheduleOperator.THREAD_LIMIT; i++) {
      ConversationThread thread = new ConversationThread();
      thread.setMetadata(
          new ObjectMetaBuilder().withName("thread-" + i).withNamespace("full").build());
      client.resource(thread).create();
    }
    try (ScheduleOperator ignored =
        ScheduleOperator.start(client, new MutableClock(at.plusSeconds(1)))) {
      client.resource(oneTime("full", "sched-full", at)).create();

      Schedule spent = awaitStatus("full", "sched-full", s -> s.getStatus().getFiredAt() != null);
      assertThat(spent.getStatus().getFiredThread()).isNull();
      assertThat(spent.getStatus().getNextRunAt()).isNull();
      assertThat(spent.getStatus().getConditions())
          .filteredOn(c -> "Completed".equals(c.getType()))
          .singleElement()
          .satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("Skipped");
            assertThat(c.getMessage())
                .contains("2026-06-01T12:00:00Z")
                .contains("at most " + ScheduleOperator.THREAD_LIMIT + " threads");
          });
      assertThat(client.resources(ConversationThread.class).inNamespace("full").list().getItems())
          .hasSize(ScheduleOperator.THREAD_LIMIT);
      assertThat(client.resources(Run.class).inNamespace("full").list().getItems()).isEmpty();
      assertThat(RecordedEvents.reasons(client, "full", "sched-full"))
          .containsExactly("ScheduleSkipped");
    }
  }

  @Test
  void disabledOneTimeScheduleDoesNotFire() {
    Instant at = Instant.parse("2026-06-01T12:00:00Z");
    try (ScheduleOperator ignored =
        ScheduleOperator.start(client, new MutableClock(at.plusSeconds(60)))) {
      Schedule schedule = oneTime("off", "sched-off", at);
      schedule.getSpec().setEnabled(false);
      client.resource(schedule).create();

      Schedule seen = awaitStatus("off", "sched-off", s -> ready(s) != null);
      assertThat(seen.getStatus().getFiredAt()).isNull();
      assertThat(seen.getStatus().getNextRunAt()).isNull();
      assertThat(threadsOf("off", "sched-off")).isEmpty();
    }
  }

  @Test
  void countsFollowTheOutcomesOfTheSchedulesRuns() {
    try (ScheduleOperator ignored =
        ScheduleOperator.start(client, new MutableClock(Instant.parse("2026-03-02T00:00:00Z")))) {
      client.resource(recurring("counts", "sched-count", "0 * * * *", "UTC")).create();
      awaitStatus("counts", "sched-count", s -> ready(s) != null);

      createRun("counts", "sched-count", "run-a-1", "completed");
      createRun("counts", "sched-count", "run-b-1", "failed");
      createRun("counts", "sched-count", "run-c-1", null);
      createRun("counts", null, "run-other-1", "completed");

      Schedule counted =
          awaitStatus(
              "counts",
              "sched-count",
              s ->
                  Long.valueOf(3).equals(s.getStatus().getRunCount())
                      && Long.valueOf(1).equals(s.getStatus().getSuccessCount())
                      && Long.valueOf(1).equals(s.getStatus().getFailureCount()));
      assertThat(counted.getStatus().getLastRunAt()).endsWith("Z");
      awaitStatus(
          "counts", "sched-count", s -> Double.valueOf(0.2).equals(s.getStatus().getTotalCost()));

      setPhase("counts", "run-c-1", "cancelled");
      awaitStatus(
          "counts",
          "sched-count",
          s ->
              Long.valueOf(2).equals(s.getStatus().getFailureCount())
                  && Double.valueOf(0.3).equals(s.getStatus().getTotalCost()));
      setPhase("counts", "run-b-1", "completed");
      awaitStatus(
          "counts",
          "sched-count",
          s ->
              Long.valueOf(2).equals(s.getStatus().getSuccessCount())
                  && Long.valueOf(1).equals(s.getStatus().getFailureCount()));
    }
  }

  @Test
  void triggerAccountDeletedByHandIsMadeAgainAndACronJobGoesWhenTheScheduleStopsRecurring() {
    MutableClock clock = new MutableClock(Instant.parse("2026-03-02T07:58:00Z"));
    try (ScheduleOperator ignored = ScheduleOperator.start(client, clock)) {
      client.resource(recurring("handmade", "sched-hand", "0 9 * * *", "UTC")).create();
      await().atMost(WAIT).until(() -> cronJob("handmade", "sched-hand"), c -> c != null);
      String account =
          client
              .serviceAccounts()
              .inNamespace("handmade")
              .withName("threadline-trigger")
              .get()
              .getMetadata()
              .getUid();

      client.serviceAccounts().inNamespace("handmade").withName("threadline-trigger").delete();
      client.rbac().roleBindings().inNamespace("handmade").withName("threadline-trigger").delete();

      await()
          .atMost(WAIT)
          .until(
              () ->
                  client
                      .serviceAccounts()
                      .inNamespace("handmade")
                      .withName("threadline-trigger")
                      .get(),
              made -> made != null && !made.getMetadata().getUid().equals(account));
      await()
          .atMost(WAIT)
          .until(() ->
              client
                      .rbac()
                      .roleBindings()
                      .inNamespace("handmade")
                      .withName("threadline-trigger")
                      .get()
                  != null);

      client
          .resources(Schedule.class)
          .inNamespace("handmade")
          .withName("sched-hand")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"scheduleType\":\""
                  + Schedule.ONE_TIME
                  + "\",\"scheduledTime\":\"2026-03-03T09:00:00Z\"}}");
      await().atMost(WAIT).until(() -> cronJob("handmade", "sched-hand") == null);
      // Shared by the namespace's schedules: it stays.
      assertThat(
              client.serviceAccounts().inNamespace("handmade").withName("threadline-trigger").get())
          .isNotNull();
    }
  }

  @Test
  void aFarFutureOneTimeScheduleConvergesWithoutOverflowingItsWakeUp() {
    Reconciles reconciles = new Reconciles();
    MutableClock clock = new MutableClock(Instant.parse("2026-03-02T00:00:00Z"));
    try (ScheduleOperator ignored = ScheduleOperator.start(client, clock, reconciles)) {
      Schedule schedule = oneTime("far", "sched-far", Instant.MAX);
      schedule.getSpec().setScheduledTime("+999999999-12-31T23:59:59Z");
      client.resource(schedule).create();

      Schedule ready =
          awaitStatus("far", "sched-far", s -> ready(s) != null && "Scheduled".equals(reason(s)));
      assertThat(ready.getStatus().getNextRunAt()).isEqualTo("+999999999-12-31T23:59:59Z");
      assertThat(reconciles.awaitSettled("Schedule", "far", "sched-far"))
          .as("reconciles of a schedule that waits (no failure, no retry)")
          .isLessThanOrEqualTo(3);
      assertThat(
              reason(
                  client.resources(Schedule.class).inNamespace("far").withName("sched-far").get()))
          .isEqualTo("Scheduled");
    }
  }

  @Test
  void aReconcileThatKeepsFailingIsRetriedWithGrowingDelays() {
    // Every CronJob creation in this namespace fails, as an API server that refuses it would.
    server
        .expect()
        .post()
        .withPath("/apis/batch/v1/namespaces/failing/cronjobs")
        .andReturn(403, "{\"kind\":\"Status\",\"code\":403,\"message\":\"refused\"}")
        .always();
    Reconciles reconciles = new Reconciles();
    MutableClock clock = new MutableClock(Instant.parse("2026-03-02T07:58:00Z"));
    try (ScheduleOperator ignored = ScheduleOperator.start(client, clock, reconciles)) {
      client.resource(recurring("failing", "sched-failing", "0 9 * * *", "UTC")).create();
      // Nine attempts: the framework's default retry gives up after five retries (six attempts,
      // and one or two more the schedule's other objects' events may bring); this one never does.
      // From 25 ms doubling, the ninth comes after about 6.4 s.
      int wanted = 9;
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> reconciles.of("Schedule", "failing", "sched-failing") >= wanted);
      List<Long> attempts =
          reconciles.startsOf("Schedule", "failing", "sched-failing").subList(0, wanted);

      List<Long> gaps = new java.util.ArrayList<>();
      for (int i = 1; i < attempts.size(); i++) {
        gaps.add(attempts.get(i) - attempts.get(i - 1));
      }
      // The last waits (the first ones may be cut short by the events of the schedule's other
      // objects) each about twice the one before.
      for (int i = gaps.size() - 3; i < gaps.size(); i++) {
        assertThat(gaps.get(i)).as("wait %d of %s", i, gaps).isGreaterThan(gaps.get(i - 1) * 3 / 2);
      }
      // Not a hot loop: the waits grew far past the first one.
      assertThat(gaps.getLast())
          .as("the last wait of %s", gaps)
          .isGreaterThanOrEqualTo(ScheduleOperator.RETRY_FIRST_WAIT.toNanos() * 32);
      assertThat(
              ready(
                      client
                          .resources(Schedule.class)
                          .inNamespace("failing")
                          .withName("sched-failing")
                          .get())
                  .getReason())
          .isEqualTo("ReconcileError");
    }
  }

  private static String reason(Schedule schedule) {
    Condition ready = ready(schedule);
    return ready == null ? null : ready.getReason();
  }

  private static Schedule recurring(String namespace, String name, String cron, String timezone) {
    Schedule schedule = schedule(namespace, name);
    schedule.getSpec().setScheduleType(Schedule.RECURRING);
    schedule.getSpec().setCronExpression(cron);
    schedule.getSpec().setTimezone(timezone);
    return schedule;
  }

  private static Schedule oneTime(String namespace, String name, Instant at) {
    Schedule schedule = schedule(namespace, name);
    schedule.getSpec().setScheduleType(Schedule.ONE_TIME);
    schedule.getSpec().setScheduledTime(at.toString());
    schedule.getSpec().setDisplayName("Once");
    return schedule;
  }

  private static Schedule schedule(String namespace, String name) {
    Schedule schedule = new Schedule();
    schedule.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    ScheduleSpec spec = new ScheduleSpec();
    spec.setTask("Hello!");
    schedule.setSpec(spec);
    return schedule;
  }

  private static void createRun(String namespace, String schedule, String name, String phase) {
    Run run = new Run();
    ObjectMetaBuilder metadata = new ObjectMetaBuilder().withName(name).withNamespace(namespace);
    if (schedule != null) {
      metadata.addToLabels(Labels.SCHEDULE, schedule);
    }
    run.setMetadata(metadata.build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-" + name);
    spec.setMessage("Hello!");
    spec.setSource("schedule");
    run.setSpec(spec);
    client.resource(run).create();
    if (phase != null) {
      setPhase(namespace, name, phase);
    }
  }

  private static void setPhase(String namespace, String name, String phase) {
    client
        .resources(Run.class)
        .inNamespace(namespace)
        .withName(name)
        .editStatus(run -> {
          RunStatus status = new RunStatus();
          status.setPhase(phase);
          status.setCost(0.1);
          run.setStatus(status);
          return run;
        });
  }

  private static CronJob cronJob(String namespace, String name) {
    return client.batch().v1().cronjobs().inNamespace(namespace).withName(name).get();
  }

  private static List<ConversationThread> threadsOf(String namespace, String schedule) {
    return client
        .resources(ConversationThread.class)
        .inNamespace(namespace)
        .withLabel(Labels.SCHEDULE, schedule)
        .list()
        .getItems();
  }

  private static Schedule awaitStatus(
      String namespace, String name, java.util.function.Predicate<Schedule> condition) {
    return await()
        .atMost(WAIT)
        .until(
            () -> client.resources(Schedule.class).inNamespace(namespace).withName(name).get(),
            s -> s != null && s.getStatus() != null && condition.test(s));
  }

  private static Condition ready(Schedule schedule) {
    return schedule.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .findFirst()
        .orElse(null);
  }
}
