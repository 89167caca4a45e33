package dev.threadline.api.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimitSettings;
import dev.threadline.api.stream.RunCompletion;
import dev.threadline.api.stream.RunUpdates;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.api.webhooks.WebhookInput;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The seam for schedules: with a {@link ScheduleCreator}, messages plus a schedule (with its
 * webhooks) make {@code {thread, schedule}} and no run; when the creator refuses, the thread is
 * removed again. Wired by hand over the shared mock API (a second Spring context would cost
 * seconds).
 */
class ScheduleCreatorMockServerTest {
  private static final Duration VISIBLE = Duration.ofSeconds(5);

  private static SharedApiServer shared;
  private static KubernetesClient client;
  private static List<ManagedInformer<?>> informers;
  private static ThreadStore threadStore;
  private static RunStore runStore;
  private static ThreadService threads;

  @BeforeAll
  static void wire() {
    shared = SharedApiServer.get();
    client = shared.client();
    ThreadOrder threadOrder = new ThreadOrder();
    SharedIndexInformer<ConversationThread> threadInformer =
        client.resources(ConversationThread.class).inAnyNamespace().runnableInformer(0);
    ManagedInformer<ConversationThread> threadCache =
        new ManagedInformer<>("test-threads", threadInformer, Map.of(), threadOrder);
    ManagedInformer<Run> runCache =
        new ManagedInformer<>(
            "test-runs",
            client.resources(Run.class).inAnyNamespace().runnableInformer(0),
            Map.of(RunStore.BY_THREAD, RunStore.threadIndex()));
    ManagedInformer<Agent> agentCache =
        new ManagedInformer<>(
            "test-agents",
            client.resources(Agent.class).inAnyNamespace().runnableInformer(0),
            Map.of());
    informers = List.of(threadCache, runCache, agentCache);
    informers.forEach(ManagedInformer::start);
    informers.forEach(informer -> assertThat(informer.awaitReady(VISIBLE)).isTrue());
    ObjectLimitSettings limits =
        new ObjectLimitSettings(null, null, null, null, null, null, null, null);
    threadStore = new ThreadStore(client, threadCache, threadOrder, VISIBLE, limits.threadLimit());
    runStore = new RunStore(client, runCache, VISIBLE, limits.runLimit());
    threads =
        new ThreadService(
            threadStore,
            runStore,
            new AgentDirectory(agentCache),
            Clock.systemUTC(),
            new KeptThreads(shared.history(), client.getKubernetesSerialization()));
  }

  @AfterAll
  static void stop() {
    informers.forEach(ManagedInformer::stop);
  }

  @Test
  void aScheduleCreatorGetsTheTaskAndTheThreadAndNoRunStarts() {
    TestUser alice = shared.newUser("alice");
    Tenant tenant = new Tenant(alice.userId(), alice.namespace());
    List<ScheduleRequest> asked = new ArrayList<>();
    List<ThreadView> forThreads = new ArrayList<>();
    ExecutionService executions =
        executions((user, thread, request) -> {
          forThreads.add(thread);
          asked.add(request);
          return Optional.of(
              new ScheduleSummary(
                  "sched_1",
                  request.name(),
                  request.type(),
                  request.cronExpression(),
                  true,
                  List.of()));
        });
    List<WebhookInput> webhooks =
        List.of(new WebhookInput("https://hooks.example/digest", List.of("run.failed"), null));

    ExecutionService.Created created =
        executions.createThread(
            tenant,
            request(
                new ThreadRequests.ScheduleInput(
                    "recurring", "Daily digest", "0 9 * * 1-5", "Europe/Paris", null, webhooks)));

    assertThat(created)
        .isInstanceOfSatisfying(
            ExecutionService.ScheduledThread.class,
            scheduled -> {
              assertThat(scheduled.schedule())
                  .isEqualTo(
                      new ScheduleSummary(
                          "sched_1", "Daily digest", "recurring", "0 9 * * 1-5", true, List.of()));
              assertThat(scheduled.thread().status()).isEqualTo("active");
              assertThat(forThreads).containsExactly(scheduled.thread());
            });
    assertThat(asked)
        .containsExactly(
            new ScheduleRequest(
                "recurring",
                "Daily digest",
                "0 9 * * 1-5",
                "Europe/Paris",
                null,
                "Send the digest",
                webhooks));
    assertThat(client.resources(Run.class).inNamespace(alice.namespace()).list().getItems())
        .isEmpty();
    assertThat(
            client
                .resources(ConversationThread.class)
                .inNamespace(alice.namespace())
                .list()
                .getItems())
        .hasSize(1);
  }

  @Test
  void aRefusedScheduleLeavesNoThreadBehind() {
    TestUser bob = shared.newUser("bob");
    Tenant tenant = new Tenant(bob.userId(), bob.namespace());
    ThreadRequests.Create request =
        request(new ThreadRequests.ScheduleInput("recurring", "x", "bad", null, null, null));

    assertThatThrownBy(() ->
            executions(
                    (user, thread, schedule) -> {
                      throw ApiException.badRequest(
                          "schedule.cronExpression", "is not a valid cron expression");
                    })
                .createThread(tenant, request))
        .hasMessage("schedule.cronExpression is not a valid cron expression");
    assertThatThrownBy(() ->
            executions((user, thread, schedule) -> Optional.empty()).createThread(tenant, request))
        .hasMessage("schedule cannot be used: schedules are not available yet");

    assertThat(
            client
                .resources(ConversationThread.class)
                .inNamespace(bob.namespace())
                .list()
                .getItems())
        .isEmpty();
  }

  private static ExecutionService executions(ScheduleCreator creator) {
    RunCompletion unused = new RunCompletion(new RunUpdates(), null);
    return new ExecutionService(
        threads, runStore, unused, VISIBLE, () -> Optional.of(creator), shared.history());
  }

  private static ThreadRequests.Create request(ThreadRequests.ScheduleInput schedule) {
    return new ThreadRequests.Create(
        null, null, "Digest", null, "Send the digest", null, schedule, null, null, null, null);
  }
}
