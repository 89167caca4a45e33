package dev.threadline.api.threads;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimitSettings;
import dev.threadline.api.stream.RunCompletion;
import dev.threadline.api.stream.RunLog;
import dev.threadline.api.stream.RunUpdates;
import dev.threadline.api.stream.StreamSettings;
import dev.threadline.api.usage.ExecutionAllowance;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.History;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the thread endpoints: cluster-wide Thread and Run informers (runs indexed by their thread),
 * the stores over them, and the services.
 */
@Configuration(proxyBeanMethods = false)
class ThreadConfiguration {
  @Bean
  ThreadOrder threadOrder() {
    return new ThreadOrder();
  }

  @Bean
  ManagedInformer<ConversationThread> threadInformer(
      KubernetesClient client, ThreadOrder threadOrder) {
    SharedIndexInformer<ConversationThread> informer =
        client
            .resources(ConversationThread.class)
            .inAnyNamespace()
            .withLimit(ManagedInformer.LIST_PAGE)
            .runnableInformer(0);
    return new ManagedInformer<>("threads", informer, Map.of(), threadOrder);
  }

  /** Streams follow runs through this informer's notifications, relayed by {@link RunUpdates}. */
  @Bean
  ManagedInformer<Run> runInformer(KubernetesClient client, RunUpdates runUpdates) {
    SharedIndexInformer<Run> informer =
        client
            .resources(Run.class)
            .inAnyNamespace()
            .withLimit(ManagedInformer.LIST_PAGE)
            .runnableInformer(0);
    informer.addEventHandler(runUpdates);
    return new ManagedInformer<>(
        "runs", informer, Map.of(RunStore.BY_THREAD, RunStore.threadIndex()));
  }

  @Bean
  ThreadStore threadStore(
      KubernetesClient client,
      ManagedInformer<ConversationThread> threadInformer,
      ThreadOrder threadOrder,
      ApiServerSettings settings,
      ObjectLimitSettings limits) {
    return new ThreadStore(
        client,
        threadInformer,
        threadOrder,
        settings.writeVisibilityTimeout(),
        limits.threadLimit());
  }

  @Bean
  RunStore runStore(
      KubernetesClient client,
      ManagedInformer<Run> runInformer,
      ApiServerSettings settings,
      ObjectLimitSettings limits) {
    return new RunStore(client, runInformer, settings.writeVisibilityTimeout(), limits.runLimit());
  }

  @Bean
  ThreadService threadService(
      ThreadStore threadStore,
      RunStore runStore,
      ManagedInformer<Agent> agentInformer,
      Clock clock,
      History history,
      KubernetesClient client) {
    return new ThreadService(
        threadStore,
        runStore,
        new AgentDirectory(agentInformer),
        clock,
        new KeptThreads(history, client.getKubernetesSerialization()));
  }

  @Bean
  ExecutionService executionService(
      ThreadService threadService,
      RunStore runStore,
      RunCompletion runCompletion,
      StreamSettings streamSettings,
      ObjectProvider<ScheduleCreator> scheduleCreator,
      ExecutionAllowance executionAllowance,
      History history,
      ObjectLimitSettings limits) {
    return new ExecutionService(
        threadService,
        runStore,
        runCompletion,
        streamSettings.maxWait(),
        () -> Optional.ofNullable(scheduleCreator.getIfAvailable()),
        executionAllowance,
        history,
        limits.historyQuota(history),
        limits.queuedMessages());
  }

  @Bean
  ThreadTasks threadTasks(
      ThreadService threadService,
      ExecutionService executionService,
      RunStore runStore,
      RunContents runContents) {
    return new ThreadTasks(threadService, executionService, runStore, runContents);
  }

  @Bean
  ApprovalAnswers approvalAnswers(
      ThreadService threadService, RunStore runStore, History history, Clock clock) {
    return new ApprovalAnswers(threadService, runStore, history, clock);
  }

  @Bean
  RunContents runContents(History history, RunLog runLog) {
    return new RunContents(history, runLog);
  }

  @Bean
  ThreadReader threadReader(ThreadService threadService, RunContents runContents) {
    return new ThreadReader(threadService, runContents);
  }
}
