package dev.threadline.api.mcp;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.api.stream.RunStreams;
import dev.threadline.api.threads.ExecutionService;
import dev.threadline.api.threads.ThreadReader;
import dev.threadline.api.threads.ThreadRequests;
import dev.threadline.api.threads.ThreadService;
import dev.threadline.crds.common.ResourceIds;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Threadline's MCP tools: each one is a REST endpoint of threads, called through the same services
 * with the same rules (scopes, usage allowance and 402, limits, another user's thread not found),
 * answering with the endpoint's JSON. A task waits for its run to finish, reporting each of its
 * events as progress when the client asks for progress; {@code wait: false} returns at once.
 */
final class ThreadTools {
  private static final String THREADS = "/v1/threads";

  private final ThreadService threads;
  private final ExecutionService executions;
  private final ThreadReader reader;
  private final RunStreams streams;
  private final ToolResults results;

  ThreadTools(
      ThreadService threads,
      ExecutionService executions,
      ThreadReader reader,
      RunStreams streams,
      ToolResults results) {
    this.threads = threads;
    this.executions = executions;
    this.reader = reader;
    this.streams = streams;
    this.results = results;
  }

  /** A started run, for {@code wait: false}. */
  record StartedTask(String threadId, String runId, String status) {}

  List<SyncToolSpecification> all() {
    return List.of(
        tool(
            "start_task",
            "Start a task in a new thread. The router answers simple messages directly and sends"
                + " real work (commands, file edits) to a sandbox built from the environment. Waits"
                + " for the run to finish (with progress) and returns the thread and the"
                + " execution; wait=false returns the thread and run ids at once.",
            false,
            schema(
                List.of("task"),
                text("task", "What to do, in plain words"),
                text("environmentId", "The environment (env_...) to run in; default: yours"),
                text("agentId", "The agent (agent_...) to run; default: the default agent"),
                text("title", "A title for the thread"),
                flag("wait", "Wait for the run to finish (default true)")),
            this::startTask),
        tool(
            "send_message",
            "Send a follow-up (or a new task) to an existing thread; it sees the thread's earlier"
                + " messages and files. Waits for the run like start_task.",
            false,
            schema(
                List.of("threadId", "content"),
                text("threadId", "The thread (thread_...)"),
                text("content", "The message"),
                flag("wait", "Wait for the run to finish (default true)")),
            this::sendMessage),
        tool(
            "list_threads",
            "List your threads, newest first, one page at a time.",
            true,
            schema(
                List.of(),
                number("limit", "Page size, 1 to 100 (default 50)"),
                number("offset", "Threads to skip (default 0)"),
                text("status", "Only threads in this status (active, running, ...)"),
                text("environmentId", "Only threads of this environment"),
                text("agentId", "Only threads of this agent")),
            this::listThreads),
        tool(
            "get_thread",
            "A thread: its status, message count, tokens and cost.",
            true,
            schema(List.of("threadId"), text("threadId", "The thread (thread_...)")),
            (caller, arguments) ->
                threads.get(
                    caller.require("GET", THREADS).tenant(), arguments.requiredText("threadId"))),
        tool(
            "read_messages",
            "A thread's conversation: user messages and answers, oldest first.",
            true,
            schema(
                List.of("threadId"),
                text("threadId", "The thread (thread_...)"),
                number("limit", "Page size, 1 to 100 (default 50)"),
                number("offset", "Messages to skip (default 0)"),
                text("order", "asc (default) or desc")),
            (caller, arguments) ->
                reader.messages(
                    caller.require("GET", THREADS).tenant(),
                    arguments.requiredText("threadId"),
                    page(arguments),
                    arguments.text("order"))),
        tool(
            "read_logs",
            "A thread's logs: every run's events, commands and their output.",
            true,
            schema(List.of("threadId"), text("threadId", "The thread (thread_...)")),
            (caller, arguments) ->
                reader.logs(
                    caller.require("GET", THREADS).tenant(), arguments.requiredText("threadId"))),
        tool(
            "read_diffs",
            "The files a thread's runs changed in its workspace, as unified diffs.",
            true,
            schema(List.of("threadId"), text("threadId", "The thread (thread_...)")),
            (caller, arguments) ->
                reader.diffs(
                    caller.require("GET", THREADS).tenant(), arguments.requiredText("threadId"))),
        tool(
            "cancel_run",
            "Cancel the run a thread is processing; says so when nothing is running.",
            false,
            schema(List.of("threadId"), text("threadId", "The thread (thread_...)")),
            (caller, arguments) ->
                executions.cancel(
                    caller.require("POST", THREADS).tenant(), arguments.requiredText("threadId"))));
  }

  private Object startTask(McpCaller caller, ToolArguments arguments, Progress progress)
      throws InterruptedException {
    Tenant tenant = caller.require("POST", THREADS).tenant();
    String task = arguments.requiredText("task");
    ThreadRequests.Create request =
        new ThreadRequests.Create(
            arguments.text("environmentId"),
            arguments.text("agentId"),
            arguments.text("title"),
            null,
            task,
            false,
            null,
            null,
            null,
            null,
            null);
    boolean wait = arguments.flag("wait", true);
    return switch (executions.createThread(tenant, request)) {
      case ExecutionService.StartedRun started -> outcome(tenant, started, wait, progress);
      // A task always starts a run; the other outcomes need no task or a schedule.
      case ExecutionService.EmptyThread empty -> empty.thread();
      case ExecutionService.ScheduledThread scheduled -> scheduled.thread();
    };
  }

  private Object sendMessage(McpCaller caller, ToolArguments arguments, Progress progress)
      throws InterruptedException {
    Tenant tenant = caller.require("POST", THREADS).tenant();
    String threadId = arguments.requiredText("threadId");
    // A busy thread refuses (the reject strategy), as a REST POST without the field does.
    ThreadRequests.PostMessage request =
        new ThreadRequests.PostMessage(arguments.requiredText("content"), null, false, null, null);
    boolean wait = arguments.flag("wait", true);
    return outcome(tenant, executions.postMessage(tenant, threadId, request), wait, progress);
  }

  private Object listThreads(McpCaller caller, ToolArguments arguments) {
    return threads.list(
        caller.require("GET", THREADS).tenant(),
        new ThreadService.ThreadFilter(
            arguments.text("environmentId"),
            arguments.text("agentId"),
            null,
            arguments.text("status"),
            null),
        page(arguments));
  }

  /**
   * The run's outcome once it is over, following it for progress first when the client asked; or
   * the ids at once.
   */
  private Object outcome(
      Tenant tenant, ExecutionService.StartedRun started, boolean wait, Progress progress)
      throws InterruptedException {
    String runName = started.run().getMetadata().getName();
    String threadId = ResourceIds.toId(started.thread().getMetadata().getName());
    if (!wait) {
      return new StartedTask(threadId, ResourceIds.toId(runName), "running");
    }
    if (progress.token() != null) {
      ProgressSink sink =
          new ProgressSink(progress.token(), progress.exchange()::progressNotification);
      streams.follow(RunStreams.StreamStart.fromStart(started.run(), tenant.userId()), sink);
      if (sink.gone()) {
        throw ApiException.serviceUnavailable("The client went away; the run goes on");
      }
      if (sink.streamError() != null) {
        throw ApiException.serviceUnavailable(sink.streamError());
      }
    }
    return executions.awaitExecution(tenant, started);
  }

  private static PageRequest page(ToolArguments arguments) {
    Integer limit = arguments.wholeNumber("limit");
    Integer offset = arguments.wholeNumber("offset");
    return PageRequest.parse(
        limit == null ? null : limit.toString(), offset == null ? null : offset.toString());
  }

  /** The client's progress token (null: it asked for none) and where to send progress. */
  record Progress(Object token, McpSyncServerExchange exchange) {}

  /** A tool's work: the REST body it answers with, or an exception the REST API would map. */
  @FunctionalInterface
  private interface Work {
    Object run(McpCaller caller, ToolArguments arguments, Progress progress) throws Exception;
  }

  /** A tool that neither waits nor reports progress. */
  @FunctionalInterface
  private interface Read {
    Object run(McpCaller caller, ToolArguments arguments);
  }

  private SyncToolSpecification tool(
      String name, String description, boolean readOnly, Map<String, Object> schema, Read read) {
    return tool(
        name,
        description,
        readOnly,
        schema,
        (Work) (caller, arguments, progress) -> read.run(caller, arguments));
  }

  private SyncToolSpecification tool(
      String name, String description, boolean readOnly, Map<String, Object> schema, Work work) {
    McpSchema.Tool tool =
        McpSchema.Tool.builder()
            .name(name)
            .description(description)
            .inputSchema(schema)
            .annotations(
                new McpSchema.ToolAnnotations(null, readOnly, false, readOnly, false, null))
            .build();
    BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> handler =
        (exchange, request) -> {
          try {
            McpCaller caller = McpCaller.of(exchange.transportContext());
            Object token = request.meta() == null ? null : request.meta().get("progressToken");
            return results.ok(
                work.run(
                    caller, new ToolArguments(request.arguments()), new Progress(token, exchange)));
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return results.failed(
                ApiException.serviceUnavailable("The server is shutting down"), name);
          } catch (Exception failure) {
            return results.failed(failure, name);
          }
        };
    return SyncToolSpecification.builder().tool(tool).callHandler(handler).build();
  }

  @SafeVarargs
  private static Map<String, Object> schema(
      List<String> required, Map.Entry<String, Object>... properties) {
    Map<String, Object> byName = new LinkedHashMap<>();
    for (Map.Entry<String, Object> property : properties) {
      byName.put(property.getKey(), property.getValue());
    }
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", byName);
    schema.put("required", required);
    return schema;
  }

  private static Map.Entry<String, Object> text(String name, String description) {
    return Map.entry(name, Map.of("type", "string", "description", description));
  }

  private static Map.Entry<String, Object> number(String name, String description) {
    return Map.entry(name, Map.of("type", "integer", "description", description));
  }

  private static Map.Entry<String, Object> flag(String name, String description) {
    return Map.entry(name, Map.of("type", "boolean", "description", description));
  }
}
