package dev.threadline.api.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.FileDiff;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Plays the operator in tests: when a Run appears it writes the status the real operator would,
 * chosen by the message's first word. {@code [hold]} leaves the run pending until the test calls
 * {@link #answer}; {@code [fail]} fails it; {@code [computer]} takes the computer route in two
 * status patches (running, then completed); anything else is answered directly with {@code Echo:
 * <message>}.
 */
public final class FakeOperator {
  public static final String HOLD = "[hold]";
  public static final String FAIL = "[fail]";
  public static final String COMPUTER = "[computer]";

  public static final long INPUT_TOKENS = 12;
  public static final long OUTPUT_TOKENS = 7;
  public static final long CACHED_TOKENS = 2;
  public static final long DURATION_MS = 42;
  public static final double COST = 0.0015;

  private static FakeOperator instance;

  private final KubernetesClient client;
  private final ExecutorService worker = Executors.newVirtualThreadPerTaskExecutor();

  private FakeOperator(KubernetesClient client) {
    this.client = client;
    client
        .resources(Run.class)
        .inAnyNamespace()
        .watch(
            new Watcher<>() {
              @Override
              public void eventReceived(Action action, Run run) {
                if (action == Action.ADDED && run.getStatus() == null) {
                  // Off the watch thread: the reaction makes blocking API calls.
                  worker.submit(() -> react(run));
                }
              }

              @Override
              public void onClose(WatcherException cause) {}
            });
  }

  /** The one fake operator of the shared mock API. */
  public static synchronized FakeOperator on(SharedApiServer shared) {
    if (instance == null) {
      instance = new FakeOperator(shared.client());
    }
    return instance;
  }

  private void react(Run run) {
    String message = run.getSpec().getMessage();
    String namespace = run.getMetadata().getNamespace();
    String name = run.getMetadata().getName();
    if (message.startsWith(HOLD)) {
      return;
    }
    if (message.startsWith(FAIL)) {
      fail(namespace, name);
    } else if (message.startsWith(COMPUTER)) {
      computer(namespace, name);
    } else {
      answer(namespace, name);
    }
  }

  /** Completes the run on the direct path, as the operator's one status patch does. */
  public void answer(String namespace, String name) {
    Run run = current(namespace, name);
    Instant now = Instant.now();
    RunStatus status = new RunStatus();
    status.setRoute("direct");
    status.setRouteReason("a question the model can answer");
    status.setModel("scripted");
    status.setStartedAt(Timestamps.format(now.minusMillis(DURATION_MS)));
    List<RunEvent> events = new ArrayList<>();
    events.add(
        event(
            1,
            "started",
            now,
            Map.of(
                "route",
                "direct",
                "reason",
                "a question the model can answer",
                "model",
                "scripted")));
    String response = "Echo: " + run.getSpec().getMessage();
    events.add(event(2, "message", now, Map.of("role", "assistant", "text", response)));
    events.add(
        event(
            3,
            "result",
            now,
            Map.of(
                "phase",
                "completed",
                "durationMs",
                DURATION_MS,
                "usage",
                Map.of(
                    "inputTokens",
                    INPUT_TOKENS,
                    "outputTokens",
                    OUTPUT_TOKENS,
                    "cachedTokens",
                    CACHED_TOKENS))));
    status.setEvents(events);
    finish(status, "completed", now);
    status.setResponse(response);
    write(run, status);
  }

  /** Fails the run on the direct path (the model was unavailable). */
  public void fail(String namespace, String name) {
    Run run = current(namespace, name);
    Instant now = Instant.now();
    RunStatus status = new RunStatus();
    status.setRoute("direct");
    status.setRouteReason("a question the model can answer");
    status.setModel("scripted");
    status.setStartedAt(Timestamps.format(now.minusMillis(DURATION_MS)));
    RunError error = new RunError();
    error.setCode("execution_failed");
    error.setMessage("Model unavailable");
    status.setError(error);
    status.setEvents(
        List.of(
            event(
                1,
                "started",
                now,
                Map.of(
                    "route",
                    "direct",
                    "reason",
                    "a question the model can answer",
                    "model",
                    "scripted")),
            event(
                2,
                "failed",
                now,
                Map.of(
                    "error",
                    Map.of("code", "execution_failed", "message", "Model unavailable"),
                    "phase",
                    "failed",
                    "durationMs",
                    DURATION_MS,
                    "usage",
                    Map.of("inputTokens", 0, "outputTokens", 0, "cachedTokens", 0)))));
    finish(status, "failed", now);
    status.setUsage(usage(0, 0, 0));
    status.setCost(0.0);
    write(run, status);
  }

  /**
   * The computer route in two patches: the operator's started event and the runner's first lines
   * while running, then the rest of the runner's protocol and the result.
   */
  public void computer(String namespace, String name) {
    Run run = current(namespace, name);
    Instant now = Instant.now();
    RunStatus running = new RunStatus();
    running.setPhase("running");
    running.setRoute("computer");
    running.setRouteReason("the task runs commands");
    running.setModel("scripted");
    running.setStartedAt(Timestamps.format(now));
    running.setPod(name + "-agent");
    running.setEvents(
        new ArrayList<>(
            List.of(
                event(
                    1,
                    "started",
                    now,
                    Map.of(
                        "route",
                        "computer",
                        "reason",
                        "the task runs commands",
                        "model",
                        "scripted")),
                event(
                    2,
                    "started",
                    now,
                    Map.of("run_id", name, "model", "scripted", "workspace", "/workspace")),
                event(
                    3, "planning", now, Map.of("text", "List the files, then write notes.txt")))));
    run = write(run, running);

    Instant end = now.plusMillis(1500);
    RunStatus done = run.getStatus();
    List<RunEvent> events = new ArrayList<>(done.getEvents());
    events.add(event(4, "setup", end, Map.of("text", "Workspace ready")));
    events.add(event(5, "reasoning", end, Map.of("text", "I will run ls first")));
    events.add(
        event(
            6,
            "tool_call",
            end,
            Map.of(
                "id",
                "tool_1",
                "status",
                "completed",
                "tool",
                Map.of(
                    "type",
                    "command_execution",
                    "name",
                    "bash",
                    "command",
                    "ls",
                    "output",
                    "a.txt\n",
                    "exit_code",
                    0),
                "duration_ms",
                12)));
    events.add(
        event(
            7,
            "file_change",
            end,
            Map.of("path", "notes.txt", "change", "create", "additions", 1, "deletions", 0)));
    events.add(event(8, "error", end, Map.of("message", "A transient hiccup; retried")));
    events.add(
        event(9, "message", end, Map.of("role", "assistant", "text", "Done: notes.txt written")));
    events.add(
        event(
            10,
            "usage",
            end,
            Map.of(
                "input_tokens",
                INPUT_TOKENS,
                "output_tokens",
                OUTPUT_TOKENS,
                "cached_tokens",
                CACHED_TOKENS)));
    events.add(
        event(
            11,
            "result",
            end,
            Map.of(
                "response",
                "Done: notes.txt written",
                "actions",
                List.of("ls"),
                "usage",
                Map.of(
                    "input_tokens",
                    INPUT_TOKENS,
                    "output_tokens",
                    OUTPUT_TOKENS,
                    "cached_tokens",
                    CACHED_TOKENS),
                "diffs",
                List.of(Map.of("path", "notes.txt", "type", "create", "content", "hello\n")),
                "duration_ms",
                1500)));
    done.setEvents(events);
    finish(done, "completed", end);
    done.setDurationMs(1500L);
    done.setResponse("Done: notes.txt written");
    done.setActions(List.of("ls"));
    FileDiff diff = new FileDiff();
    diff.setPath("notes.txt");
    diff.setType("create");
    diff.setContent("hello\n");
    done.setDiffs(List.of(diff));
    write(run, done);
  }

  /** Writes a status with any diffs and events the test wants, keeping the phase terminal. */
  public void complete(String namespace, String name, List<FileDiff> diffs) {
    answer(namespace, name);
    Run run = current(namespace, name);
    run.getStatus().setDiffs(diffs);
    write(run, run.getStatus());
  }

  private static void finish(RunStatus status, String phase, Instant end) {
    status.setPhase(phase);
    status.setCompletedAt(Timestamps.format(end));
    status.setDurationMs(DURATION_MS);
    status.setUsage(usage(INPUT_TOKENS, OUTPUT_TOKENS, CACHED_TOKENS));
    status.setCost(COST);
  }

  private static TokenCounts usage(long in, long out, long cached) {
    TokenCounts usage = new TokenCounts();
    usage.setInputTokens(in);
    usage.setOutputTokens(out);
    usage.setCachedTokens(cached);
    return usage;
  }

  public static RunEvent event(long seq, String type, Instant time, Map<String, ?> data) {
    RunEvent event = new RunEvent();
    event.setSeq(seq);
    event.setType(type);
    event.setTime(Timestamps.format(time));
    event.setData(toJson(data));
    return event;
  }

  private static JsonNode toJson(Map<String, ?> data) {
    ObjectNode node = Serialization.jsonMapper().createObjectNode();
    data.forEach((key, value) -> node.set(key, Serialization.jsonMapper().valueToTree(value)));
    return node;
  }

  private Run current(String namespace, String name) {
    return Objects.requireNonNull(
        client.resources(Run.class).inNamespace(namespace).withName(name).get(),
        () -> "no run " + namespace + "/" + name);
  }

  private Run write(Run run, RunStatus status) {
    run.setStatus(status);
    return client
        .resources(Run.class)
        .inNamespace(run.getMetadata().getNamespace())
        .resource(run)
        .updateStatus();
  }
}
