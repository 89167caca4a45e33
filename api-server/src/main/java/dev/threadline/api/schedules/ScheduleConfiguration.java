package dev.threadline.api.schedules;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimitSettings;
import dev.threadline.api.usage.ExecutionAllowance;
import dev.threadline.api.webhooks.WebhookSecrets;
import dev.threadline.api.webhooks.WebhookTargets;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.telemetry.Telemetry;
import dev.threadline.trigger.ScheduleFirer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the schedule endpoints: one cluster-wide Schedule informer, read per tenant namespace. */
@Configuration(proxyBeanMethods = false)
class ScheduleConfiguration {
  @Bean
  ManagedInformer<Schedule> scheduleInformer(KubernetesClient client) {
    return new ManagedInformer<>(
        "schedules",
        client.resources(Schedule.class).inAnyNamespace().runnableInformer(0),
        Map.of());
  }

  @Bean
  ScheduleService scheduleService(
      KubernetesClient client,
      ManagedInformer<Schedule> scheduleInformer,
      ApiServerSettings settings,
      ObjectLimitSettings limits,
      Clock clock,
      ExecutionAllowance executionAllowance,
      WebhookSecrets webhookSecrets,
      WebhookTargets webhookTargets,
      CachedResourceStore<ConversationThread> threadStore,
      Telemetry telemetry) {
    return new ScheduleService(
        new ScheduleStore(
            client, scheduleInformer, settings.writeVisibilityTimeout(), limits.scheduleLimit()),
        threadStore,
        // A firing the API makes is a span in the request's trace.
        new ScheduleFirer(client, limits.threads(), telemetry.tracer()),
        webhookSecrets,
        webhookTargets,
        clock,
        executionAllowance,
        limits.minScheduleInterval());
  }

  @Bean
  ThreadScheduleCreator threadScheduleCreator(ScheduleService schedules) {
    return new ThreadScheduleCreator(schedules);
  }
}
