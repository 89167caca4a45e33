package dev.threadline.operator.worker;

import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentStartException;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.model.AgentProfile;
import dev.threadline.operator.model.AgentProfiles;
import dev.threadline.operator.run.ComputerHandoff;
import dev.threadline.operator.run.RunContent;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.worker.mcp.McpServerPlans;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Base64;
import java.util.List;

/**
 * A run's task from the cluster: its Agent (provider, model, instructions), its Thread's earlier
 * messages (whole, from the history store), and its Environment's documentation.
 */
public final class ClusterRunTasks implements RunTasks {
  private final KubernetesClient client;
  private final AgentProfiles agents;
  private final OperatorSettings settings;
  private final RunEventLog log;
  private final RunContent content;

  /** The thread's earlier messages and the routing's hand-off are read from {@code log}'s store. */
  public ClusterRunTasks(
      KubernetesClient client, AgentProfiles agents, OperatorSettings settings, RunEventLog log) {
    this.client = client;
    this.log = log;
    this.content = new RunContent(log.history());
    this.agents = agents;
    this.settings = settings;
  }

  @Override
  public RunTask task(Run run) {
    String namespace = run.getMetadata().getNamespace();
    AgentProfile agent =
        agents
            .resolve(namespace, run.getSpec().getAgent())
            .orElseThrow(() ->
                new IllegalArgumentException(
                    "Agent " + run.getSpec().getAgent() + " does not exist"));
    AgentEnvironment environment;
    try {
      environment = AgentEnvironment.ofRun(client, run, settings);
    } catch (AgentStartException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    List<Attachment> attachments = RunAttachments.inline(run);
    RunTask.Limits limits = RunTask.Limits.DEFAULT;
    return new RunTask(
        agent.provider(),
        agent.model(),
        AgentPrompt.instructions(agent.instructions(), environment.spec()),
        AgentPrompt.opening(
            content.conversation(run),
            attachments.stream().map(AgentPrompt::describe).toList(),
            ComputerHandoff.task(log.data(run, "started"))),
        AgentPrompt.plan(
            content.message(run), new SandboxTools(limits.commandTimeoutSeconds()).names()),
        attachments.stream()
            .map(attachment ->
                new RunTask.WorkspaceFile(
                    RunAttachments.path(attachment),
                    Base64.getDecoder().decode(attachment.getContent())))
            .toList(),
        limits,
        McpServerPlans.of(client, namespace, environment.spec()),
        agent.approvals());
  }
}
