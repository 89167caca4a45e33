package dev.threadline.api.a2a;

import dev.threadline.api.agents.AgentService;
import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.stream.RunCompletion;
import dev.threadline.api.stream.RunStreams;
import dev.threadline.api.stream.StreamSink;
import dev.threadline.api.threads.ThreadTasks;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import io.a2a.spec.AgentCard;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Part;
import io.a2a.spec.Task;
import io.a2a.spec.TaskNotCancelableError;
import io.a2a.spec.TaskNotFoundError;
import io.a2a.spec.TextPart;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The A2A operations of one endpoint (an agent, or {@code null}: threads without one), on the
 * tenant's threads and runs through {@link ThreadTasks}: a task is a run, its context its thread. A
 * task or context of another agent's endpoint, or of another user, is not found.
 */
final class A2aService {
  private final ThreadTasks tasks;
  private final AgentService agents;
  private final RunStreams streams;
  private final RunCompletion completion;
  private final Duration cancelWait;

  /**
   * @param cancelWait how long {@code tasks/cancel} waits for the run to stop before it answers
   *     with the task as it is then
   */
  A2aService(
      ThreadTasks tasks,
      AgentService agents,
      RunStreams streams,
      RunCompletion completion,
      Duration cancelWait) {
    this.tasks = tasks;
    this.agents = agents;
    this.streams = streams;
    this.completion = completion;
    this.cancelWait = cancelWait;
  }

  /** The card of the endpoint; a 404 ApiException when the tenant has no such agent. */
  AgentCard card(Tenant tenant, String agentId, String endpointUrl) {
    return agentId == null
        ? AgentCards.server(endpointUrl)
        : AgentCards.of(agents.get(tenant, agentId), endpointUrl);
  }

  /** Fails with a 404 ApiException when the endpoint's agent is not the tenant's. */
  void requireEndpoint(Tenant tenant, String agentId) {
    if (agentId != null) {
      agents.get(tenant, agentId);
    }
  }

  /** Starts the run of a user message: in its context (thread), or in a new one. */
  Run send(Tenant tenant, String agentId, MessageSendParams params) {
    Message message = params.message();
    if (message.getRole() != Message.Role.USER) {
      throw new InvalidParamsError("message.role must be user");
    }
    if (message.getTaskId() != null) {
      throw new InvalidParamsError(
          "message.taskId: a task takes no further messages once started; send the next message"
              + " with the task's contextId instead");
    }
    String text = textOf(message.getParts());
    String contextId = message.getContextId();
    if (contextId != null) {
      requireContext(tenant, agentId, contextId);
    }
    return tasks.send(tenant, agentId, contextId, text).run();
  }

  /** The endpoint's task of this id. */
  Run task(Tenant tenant, String agentId, String taskId) {
    return Optional.ofNullable(taskId)
        .flatMap(id -> tasks.run(tenant, id))
        .filter(run -> tasks.ofAgent(tenant, run, agentId))
        .orElseThrow(() -> new TaskNotFoundError());
  }

  /** The task of a run as it is now; {@code historyLength} null: the whole history. */
  Task view(Run run, Integer historyLength) {
    String answer = RunPhase.of(run).isTerminal() ? tasks.answer(run) : null;
    return TaskViews.task(run, tasks.message(run), answer, historyLength);
  }

  /** The run once finished, or as it is after {@code wait} (or when it is gone). */
  Run awaitEnd(Tenant tenant, Run run, Duration wait) throws InterruptedException {
    if (RunPhase.of(run).isTerminal()) {
      return run;
    }
    RunCompletion.Outcome outcome =
        completion.await(run.getMetadata().getNamespace(), run.getMetadata().getName(), wait);
    if (outcome.kind() == RunCompletion.Outcome.Kind.FINISHED) {
      return outcome.run();
    }
    return tasks.run(tenant, ThreadTasks.runIdOf(run)).orElse(run);
  }

  /** Asks the run to stop and answers with the task once stopped (or after the wait). */
  Task cancel(Tenant tenant, String agentId, String taskId) throws InterruptedException {
    Run run = task(tenant, agentId, taskId);
    if (!tasks.cancel(run)) {
      throw new TaskNotCancelableError(
          TaskNotCancelableError.DEFAULT_CODE,
          "Task "
              + ThreadTasks.runIdOf(run)
              + " is "
              + TaskViews.stateOf(RunPhase.of(run)).asString()
              + ": it can no longer be canceled",
          null);
    }
    return view(awaitEnd(tenant, run, cancelWait), null);
  }

  /** Follows the run into {@code sink} from its start, for a task's stream. */
  void follow(Tenant tenant, Run run, StreamSink sink) {
    streams.follow(RunStreams.StreamStart.fromStart(run, tenant.userId()), sink);
  }

  /** The whole answer of a finished run. */
  String answer(Run run) {
    return tasks.answer(run);
  }

  private void requireContext(Tenant tenant, String agentId, String contextId) {
    try {
      if (Objects.equals(ThreadTasks.agentIdOf(tasks.thread(tenant, contextId)), agentId)) {
        return;
      }
    } catch (ApiException notFound) {
      // the same answer as another agent's context
    }
    throw new InvalidParamsError("message.contextId: no context " + contextId + " at this agent");
  }

  /** The message's text: its text parts joined by blank lines; other parts are refused. */
  private static String textOf(List<Part<?>> parts) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      if (!(parts.get(i) instanceof TextPart text)) {
        throw new InvalidParamsError(
            "message.parts[" + i + "]: only text parts are accepted (kind text)");
      }
      texts.add(text.getText());
    }
    String joined = String.join("\n\n", texts);
    if (joined.isBlank()) {
      throw new InvalidParamsError("message.parts must hold some text");
    }
    return joined;
  }
}
