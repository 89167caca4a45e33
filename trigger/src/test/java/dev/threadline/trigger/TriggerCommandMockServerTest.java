package dev.threadline.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.CrdManifests;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class TriggerCommandMockServerTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-05-04T10:17:42Z"), ZoneOffset.UTC);
  static KubernetesMockServer server;
  static KubernetesClient client;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void crds() throws IOException {
    for (String plural : List.of("schedules", "threads", "runs")) {
      try (InputStream manifest =
          TriggerCommandMockServerTest.class.getResourceAsStream(CrdManifests.resourceOf(plural))) {
        CustomResourceDefinition crd =
            client.apiextensions().v1().customResourceDefinitions().load(manifest).item();
        server.expectCustomResource(CustomResourceDefinitionContext.fromCrd(crd));
      }
    }
  }

  @Test
  void createsTheFiringsThreadAndFirstRunOnceHoweverOftenTheJobStarts() {
    client.resource(schedule("team-a", "sched-daily", true)).create();
    Map<String, String> env =
        Map.of("POD_NAMESPACE", "team-a", "THREADLINE_TRIGGER_JOB_NAME", "sched-daily-29412345");

    assertThat(trigger(env, "--schedule", "sched-daily")).isZero();
    assertThat(stderr())
        .contains("created thread thread-daily-29412345 with run run-daily-29412345-1");

    ConversationThread thread =
        client
            .resources(ConversationThread.class)
            .inNamespace("team-a")
            .withName("thread-daily-29412345")
            .get();
    assertThat(thread.getMetadata().getLabels()).containsEntry(Labels.SCHEDULE, "sched-daily");
    assertThat(thread.getSpec().getTitle())
        .isEqualTo("Daily report — " + Instant.ofEpochSecond(29412345L * 60));
    assertThat(thread.getSpec().getAgent()).isEqualTo("agent-helper");
    assertThat(thread.getSpec().getEnvironment()).isEqualTo("env-main");
    assertThat(thread.getSpec().getAppId()).isEqualTo("app-1");
    Run run =
        client.resources(Run.class).inNamespace("team-a").withName("run-daily-29412345-1").get();
    assertThat(run.getMetadata().getLabels())
        .containsEntry(Labels.SCHEDULE, "sched-daily")
        .containsEntry(Labels.THREAD, "thread-daily-29412345");
    assertThat(run.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getKind()).isEqualTo("Thread");
          assertThat(owner.getUid()).isEqualTo(thread.getMetadata().getUid());
        });
    assertThat(run.getSpec().getThread()).isEqualTo("thread-daily-29412345");
    assertThat(run.getSpec().getSequence()).isEqualTo(1L);
    assertThat(run.getSpec().getMessage()).isEqualTo("Hello! Summarise yesterday.");
    assertThat(run.getSpec().getSource()).isEqualTo("schedule");
    assertThat(run.getSpec().getSchedule()).isEqualTo("sched-daily");
    assertThat(run.getSpec().getAgent()).isEqualTo("agent-helper");

    err.reset();
    assertThat(trigger(env, "--schedule", "sched-daily")).isZero();
    assertThat(stderr()).contains("thread already exists, nothing to do: thread-daily-29412345");
    assertThat(client.resources(ConversationThread.class).inNamespace("team-a").list().getItems())
        .hasSize(1);
    assertThat(client.resources(Run.class).inNamespace("team-a").list().getItems()).hasSize(1);
    assertThat(client.v1().events().inNamespace("team-a").list().getItems())
        .as("one Event for the firing, none for the start that found its thread")
        .singleElement()
        .satisfies(event -> {
          assertThat(event.getType()).isEqualTo("Normal");
          assertThat(event.getReason()).isEqualTo(FiringEvents.FIRED);
          assertThat(event.getMessage()).endsWith(": thread thread-daily-29412345");
          assertThat(event.getInvolvedObject().getKind()).isEqualTo("Schedule");
          assertThat(event.getInvolvedObject().getName()).isEqualTo("sched-daily");
          assertThat(event.getSource().getComponent()).isEqualTo(FiringEvents.COMPONENT);
        });
  }

  @Test
  void finishesAFiringInterruptedAfterItsThreadWasCreated() {
    client.resource(schedule("team-b", "sched-daily", true)).create();
    Map<String, String> env =
        Map.of("POD_NAMESPACE", "team-b", "THREADLINE_FIRING_TIME", "2026-05-04T09:00:00Z");
    ConversationThread orphan = new ConversationThread();
    String threadName =
        "thread-daily-" + Instant.parse("2026-05-04T09:00:00Z").getEpochSecond() / 60;
    orphan.setMetadata(
        new ObjectMetaBuilder().withName(threadName).withNamespace("team-b").build());
    client.resource(orphan).create();

    assertThat(trigger(env, "--schedule", "sched-daily")).isZero();

    assertThat(
            client
                .resources(Run.class)
                .inNamespace("team-b")
                .withLabel(Labels.THREAD, threadName)
                .list()
                .getItems())
        .hasSize(1);
  }

  @Test
  void aUserAtTheThreadLimitGetsNoThreadAndTheJobFails() {
    client.resource(schedule("team-full", "sched-daily", true)).create();
    ConversationThread existing = new ConversationThread();
    existing.setMetadata(
        new ObjectMetaBuilder().withName("thread-other").withNamespace("team-full").build());
    client.resource(existing).create();
    Map<String, String> env =
        Map.of(
            "POD_NAMESPACE", "team-full",
            "THREADLINE_FIRING_TIME", "2026-05-04T09:00:00Z",
            "THREADLINE_LIMITS_THREADS", "1");

    assertThat(trigger(env, "--schedule", "sched-daily")).isEqualTo(TriggerCommand.FAILED);

    assertThat(stderr())
        .contains("Schedule(team-full/sched-daily) firing of 2026-05-04T09:00:00Z skipped")
        .contains("a user may hold at most 1 threads");
    assertThat(
            client.resources(ConversationThread.class).inNamespace("team-full").list().getItems())
        .extracting(t -> t.getMetadata().getName())
        .containsExactly("thread-other");
    assertThat(client.resources(Run.class).inNamespace("team-full").list().getItems()).isEmpty();
    assertThat(client.v1().events().inNamespace("team-full").list().getItems())
        .singleElement()
        .satisfies(event -> {
          assertThat(event.getType()).isEqualTo("Warning");
          assertThat(event.getReason()).isEqualTo(FiringEvents.SKIPPED);
          assertThat(event.getMessage())
              .startsWith("The firing of 2026-05-04T09:00:00Z made no thread: ")
              .contains("a user may hold at most 1 threads");
        });
  }

  @Test
  void aDisabledScheduleDoesNotFire() {
    client.resource(schedule("team-c", "sched-daily", false)).create();

    assertThat(trigger(Map.of("POD_NAMESPACE", "team-c"), "--schedule", "sched-daily")).isZero();

    assertThat(stderr()).contains("Schedule(team-c/sched-daily) is disabled; not firing");
    assertThat(client.resources(ConversationThread.class).inNamespace("team-c").list().getItems())
        .isEmpty();
  }

  @Test
  void aMissingScheduleOrBadArgumentsFail() {
    assertThat(trigger(Map.of("POD_NAMESPACE", "team-d"), "--schedule", "sched-none")).isEqualTo(1);
    assertThat(stderr()).contains("Schedule(team-d/sched-none) does not exist");
    assertThat(trigger(Map.of(), "--schedule")).isEqualTo(2);
    assertThat(trigger(Map.of(), "sched-none")).isEqualTo(2);
    assertThat(stderr()).contains("usage: trigger --schedule <schedule name>");
  }

  private int trigger(Map<String, String> env, String... args) {
    return new TriggerCommand(
            server::createClient, env, CLOCK, new PrintStream(err, true, StandardCharsets.UTF_8))
        .execute(args);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static Schedule schedule(String namespace, String name, boolean enabled) {
    Schedule schedule = new Schedule();
    schedule.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    ScheduleSpec spec = new ScheduleSpec();
    spec.setDisplayName("Daily report");
    spec.setTask("Hello! Summarise yesterday.");
    spec.setScheduleType(Schedule.RECURRING);
    spec.setCronExpression("0 9 * * *");
    spec.setAgent("agent-helper");
    spec.setEnvironment("env-main");
    spec.setAppId("app-1");
    spec.setEnabled(enabled);
    schedule.setSpec(spec);
    return schedule;
  }
}
