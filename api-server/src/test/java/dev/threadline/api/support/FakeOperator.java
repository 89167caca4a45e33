package dev.threadline.api.support;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.history.History;
import dev.threadline.history.NewEvent;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredDiff;
import dev.threadline.history.StoredEvent;
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
 *
 * <p>It writes as the real operator does: the content (events, the whole message and answer, the
 * diffs) to the API server's history store first, under the same keys ({@code started}, {@code
 * message}, {@code result}, {@code failed} for the operator's own events, {@code runner:<n>} for
 * the runner's), then the Run's status with the count of events ({@code lastEventSeq}), of diffs
 * and a bounded preview of the answer.
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
  private final History history;
  private final ExecutorService worker = Executors.newVirtualThreadPerTaskExecutor();

  private FakeOperator(KubernetesClient client, History history) {
    this.client = client;
    this.history = history;
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
      instance = new FakeOperator(shared.client(), shared.history());
    }
    return instance;
  }

  private void react(Run run) {
    String message = run.getSpec().getMessage();
    String namespace = run.getMetadata().getNamespace();
    String name = run.getMetadata().getName();
    // As the operator's first reconcile does: the whole message, whoever recorded it first.
    String whole =
        run.getSpec().getMessageRef() == null
            ? message
            : history.messageBodies().read(namespace, run.getSpec().getMessageRef()).orElseThrow();
    history
        .runs()
        .recordMessage(
            key(run),
            run.getSpec().getSequence(),
            whole,
            Timestamps.normalize(run.getMetadata().getCreationTimestamp()));
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
    String response = "Echo: " + wholeMessage(run);
    List<NewEvent> events = new ArrayList<>();
    events.add(
        event(
            "started",
            "started",
            now,
            Map.of(
                "route",
                "direct",
                "reason",
                "a question the model can answer",
                "model",
                "scripted")));
    events.add(event("message", "message", now, Map.of("role", "assistant", "text", response)));
    events.add(
        event(
            "result",
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
    status.setLastEventSeq(append(run, events));
    finish(status, "completed", now);
    answered(run, status, response);
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
    status.setLastEventSeq(
        append(
            run,
            List.of(
                event(
                    "started",
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
                    "failed",
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
                        Map.of("inputTokens", 0, "outputTokens", 0, "cachedTokens", 0))))));
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
    running.setLastEventSeq(
        append(
            run,
            List.of(
                event(
                    "started",
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
                    "runner:1",
                    "started",
                    now,
                    Map.of("run_id", name, "model", "scripted", "workspace", "/workspace")),
                event(
                    "runner:2",
                    "planning",
                    now,
                    Map.of("text", "List the files, then write notes.txt")))));
    run = write(run, running);

    Instant end = now.plusMillis(1500);
    RunStatus done = run.getStatus();
    List<NewEvent> events = new ArrayList<>();
    events.add(event("runner:3", "setup", end, Map.of("text", "Workspace ready")));
    events.add(event("runner:4", "reasoning", end, Map.of("text", "I will run ls first")));
    events.add(
        event(
            "runner:5",
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
            "runner:6",
            "file_change",
            end,
            Map.of("path", "notes.txt", "change", "create", "additions", 1, "deletions", 0)));
    events.add(event("runner:7", "error", end, Map.of("message", "A transient hiccup; retried")));
    events.add(
        event(
            "runner:8",
            "message",
            end,
            Map.of("role", "assistant", "text", "Done: notes.txt written")));
    events.add(
        event(
            "runner:9",
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
            "runner:10",
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
    done.setLastEventSeq(append(run, events));
    diffs(run, done, List.of(new StoredDiff("notes.txt", "create", "hello\n", null, null)));
    finish(done, "completed", end);
    done.setDurationMs(1500L);
    done.setActions(List.of("ls"));
    answered(run, done, "Done: notes.txt written");
    write(run, done);
  }

  /** Completes the run on the direct path with the diffs the test wants. */
  public void complete(String namespace, String name, List<StoredDiff> diffs) {
    answer(namespace, name);
    Run run = current(namespace, name);
    diffs(run, run.getStatus(), diffs);
    write(run, run.getStatus());
  }

  /**
   * Appends events to the run's log in the history store, as the operator and the worker do;
   * returns the number of its last event (what the status's {@code lastEventSeq} says).
   */
  public long append(Run run, List<NewEvent> events) {
    List<StoredEvent> stored = history.events().append(key(run), events);
    return stored.isEmpty() ? history.events().lastSeq(key(run)) : stored.getLast().seq();
  }

  /**
   * Writes {@code status} after appending {@code events}, its {@code lastEventSeq} set: the order
   * the operator writes in (content first), for tests that script a run's log themselves.
   */
  public Run writeStatus(Run run, RunStatus status, List<NewEvent> events) {
    status.setLastEventSeq(append(run, events));
    return write(run, status);
  }

  /** The current Run from the API. */
  public Run current(String namespace, String name) {
    return Objects.requireNonNull(
        client.resources(Run.class).inNamespace(namespace).withName(name).get(),
        () -> "no run " + namespace + "/" + name);
  }

  private void diffs(Run run, RunStatus status, List<StoredDiff> diffs) {
    history.diffs().record(key(run), run.getSpec().getSequence(), diffs);
    status.setDiffCount((long) diffs.size());
  }

  /** The whole answer to the store, then its preview in the status (written after). */
  private void answered(Run run, RunStatus status, String response) {
    history.runs().recordResponse(key(run), response);
    status.setResponse(
        response.length() <= RunStatus.RESPONSE_PREVIEW
            ? response
            : response.substring(0, RunStatus.RESPONSE_PREVIEW - 1) + "…");
  }

  private String wholeMessage(Run run) {
    return history
        .runs()
        .find(run.getMetadata().getNamespace(), run.getMetadata().getName())
        .orElseThrow()
        .message();
  }

  public static RunKey key(Run run) {
    return new RunKey(
        run.getMetadata().getNamespace(), run.getSpec().getThread(), run.getMetadata().getName());
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

  /** An event for {@link #append}, keyed as its writer keys it (e.g. {@code runner:4}). */
  public static NewEvent event(String key, String type, Instant time, Map<String, ?> data) {
    return new NewEvent(key, type, Timestamps.format(time), toJson(data));
  }

  private static String toJson(Map<String, ?> data) {
    ObjectNode node = Serialization.jsonMapper().createObjectNode();
    data.forEach((key, value) -> node.set(key, Serialization.jsonMapper().valueToTree(value)));
    return node.toString();
  }

  public Run write(Run run, RunStatus status) {
    run.setStatus(status);
    return client
        .resources(Run.class)
        .inNamespace(run.getMetadata().getNamespace())
        .resource(run)
        .updateStatus();
  }
}
