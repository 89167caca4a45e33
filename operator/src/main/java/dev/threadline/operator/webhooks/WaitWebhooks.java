package dev.threadline.operator.webhooks;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunWait;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.operator.computer.AgentEnvironment;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Queues {@code run.approval_requested} when a run starts to wait for a person: a WebhookDelivery
 * per endpoint of the run's Agent, Environment and Schedule that wants it, named after the call, so
 * a worker that records the same wait again (a failover) queues nothing twice. The configuring
 * resources are read from the API: a wait is rare, and the worker keeps no informers of them.
 */
public final class WaitWebhooks {
  private final KubernetesClient client;
  private final WebhookDeliveries deliveries;

  public WaitWebhooks(KubernetesClient client) {
    this.client = client;
    this.deliveries = new WebhookDeliveries(client);
  }

  public void queue(Run run, RunWait wait) {
    String namespace = run.getMetadata().getNamespace();
    Agent agent = read(Agent.class, namespace, run.getSpec().getAgent());
    Schedule schedule = read(Schedule.class, namespace, run.getSpec().getSchedule());
    ConversationThread thread =
        read(ConversationThread.class, namespace, run.getSpec().getThread());
    String environmentName = AgentEnvironment.nameOf(run, thread);
    Environment environment =
        environmentName != null
            ? read(Environment.class, namespace, environmentName)
            : client.resources(Environment.class).inNamespace(namespace).list().getItems().stream()
                .filter(AgentEnvironment::isActiveDefault)
                .findFirst()
                .orElse(null);
    WebhookEvent event = WebhookEvent.RUN_APPROVAL_REQUESTED;
    List<WebhookRecipient> recipients =
        WebhookEvents.runRecipients(event, agent, environment, schedule);
    if (recipients.isEmpty()) {
      return;
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("threadId", WebhookEvents.id(run.getSpec().getThread()));
    data.put("runId", WebhookEvents.id(run.getMetadata().getName()));
    Optional.ofNullable(WebhookEvents.id(run.getSpec().getAgent()))
        .ifPresent(id -> data.put("agentId", id));
    data.put("callId", wait.getCallId());
    data.put("kind", wait.getKind());
    data.put("tool", wait.getTool());
    data.put("since", wait.getSince());
    deliveries.create(
        WebhookDeliveries.plan(
            run,
            event,
            run.getMetadata().getUid() + "/" + wait.getCallId(),
            Timestamps.parse(wait.getSince()).orElseThrow(),
            data,
            recipients));
  }

  private <T extends HasMetadata> T read(Class<T> type, String namespace, String name) {
    return name == null || name.isBlank()
        ? null
        : client.resources(type).inNamespace(namespace).withName(name).get();
  }
}
