package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.thread.ConversationThread;
import java.util.Objects;
import java.util.Optional;

/**
 * What a protocol other than REST (A2A) builds on: a message in a new or an existing thread, one of
 * the tenant's runs, its cancellation, its message and its answer. The services REST uses, so the
 * same checks apply (allowance and 402, history quota, bounded content, the busy thread's 409), and
 * the tenant's namespace makes another user's thread or run the same not-found as a missing one.
 */
public final class ThreadTasks {
  /** The prefix of run ids ({@code run_abc-1}). */
  public static final String RUN_PREFIX = "run";

  private final ThreadService threads;
  private final ExecutionService executions;
  private final RunStore runs;
  private final RunContents contents;

  ThreadTasks(
      ThreadService threads, ExecutionService executions, RunStore runs, RunContents contents) {
    this.threads = threads;
    this.executions = executions;
    this.runs = runs;
    this.contents = contents;
  }

  /** A run a message started, with its thread. */
  public record Started(ConversationThread thread, Run run) {}

  /**
   * Starts a run of {@code text}: in a new thread of the agent {@code agentId} (null: no agent)
   * when {@code threadId} is null, else as a follow-up in that thread.
   */
  public Started send(Tenant tenant, String agentId, String threadId, String text) {
    ExecutionService.StartedRun started;
    if (threadId == null) {
      started =
          (ExecutionService.StartedRun)
              executions.createThread(
                  tenant,
                  new ThreadRequests.Create(
                      null, agentId, null, null, text, true, null, null, null, null, null));
    } else {
      // A busy thread refuses (the reject strategy), as a REST POST without the field does.
      started =
          executions.postMessage(
              tenant, threadId, new ThreadRequests.PostMessage(text, null, true, null, null));
    }
    return new Started(started.thread(), started.run());
  }

  /** The tenant's thread (live or kept in the history store); a 404 ApiException otherwise. */
  public ConversationThread thread(Tenant tenant, String threadId) {
    return threads.find(tenant, threadId);
  }

  /**
   * The tenant's run of this id, live or kept in the history store after its retention; empty for a
   * malformed id, a missing run and another user's.
   */
  public Optional<Run> run(Tenant tenant, String runId) {
    return ResourceIds.toName(runId, RUN_PREFIX)
        .flatMap(
            name -> runs.find(tenant.namespace(), name).or(() -> threads.leftRun(tenant, name)));
  }

  /** The id of the thread's agent; null when it has none. */
  public static String agentIdOf(ConversationThread thread) {
    String agent = thread.getSpec() == null ? null : thread.getSpec().getAgent();
    return agent == null ? null : ResourceIds.toId(agent);
  }

  /** The id of the thread a run belongs to. */
  public static String threadIdOf(Run run) {
    return ResourceIds.toId(run.getSpec().getThread());
  }

  /** The id of a run ({@code run_abc-1}). */
  public static String runIdOf(Run run) {
    return RunNames.runId(run.getMetadata().getName());
  }

  /**
   * Whether the run's thread (still there) is one of agent {@code agentId} ({@code null}: of no
   * agent).
   */
  public boolean ofAgent(Tenant tenant, Run run, String agentId) {
    try {
      return Objects.equals(agentIdOf(thread(tenant, threadIdOf(run))), agentId);
    } catch (ApiException gone) {
      return false;
    }
  }

  /** Asks the operator to stop a run that still goes on; false when it is over (or gone). */
  public boolean cancel(Run run) {
    return !RunPhase.of(run).isTerminal()
        && runs.requestCancel(run.getMetadata().getNamespace(), run.getMetadata().getName());
  }

  /** The user's whole message of a run. */
  public String message(Run run) {
    return contents.message(run, null);
  }

  /** The run's whole answer (null while there is none). */
  public String answer(Run run) {
    return contents.response(run);
  }

  /** The message id of the run's user message, as REST lists it. */
  public static String userMessageId(Run run) {
    return RunNames.userMessageId(run.getMetadata().getName());
  }

  /** The message id of the run's answer, as REST lists it. */
  public static String answerMessageId(Run run) {
    return RunNames.assistantMessageId(run.getMetadata().getName());
  }
}
