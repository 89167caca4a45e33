package dev.threadline.operator.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.threadline.operator.computer.SandboxCondition;
import dev.threadline.operator.computer.SandboxGiveBack;
import dev.threadline.operator.worker.AgentWorker;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who changed which part of each Run's status, as the mock's store saw it: every write to a Run (a
 * PUT or PATCH of the object or of its status) that the store accepted is recorded with the
 * User-Agent of the client that sent it and the status before and after it. {@link #violations()}
 * checks every changed field against its one owner (docs/operator-status.md, "Who writes which part
 * of {@code Run.status}"): the operator's client ({@value #OPERATOR_AGENT}) or the worker's ({@link
 * AgentWorker#USER_AGENT}). Wrap the mock's dispatcher in it ({@code
 * StrictStatusDispatcher.startServer(owners::around)}).
 */
public final class RunStatusOwners {
  /** The User-Agent of the operator's client in tests that check owners. */
  public static final String OPERATOR_AGENT = "threadline-operator";

  public static final String OPERATOR = "operator";
  public static final String WORKER = "worker";

  private static final Pattern RUN =
      Pattern.compile("/apis/threadline\\.dev/v1alpha1/namespaces/[^/]+/runs/([^/]+)(/status)?");

  /** On either route: owned by the operator's controllers (routing, the computer path, …). */
  private static final Set<String> OPERATOR_FIELDS =
      Set.of(
          "route",
          "routeReason",
          "model",
          "startedAt",
          "observedGeneration",
          "pod",
          "start",
          "conditions[Ready]",
          // With Ready, by the run reconciler (run/RunReadiness): kstatus's view of the phase.
          "conditions[Reconciling]",
          "conditions[Stalled]",
          "conditions[" + SandboxCondition.TYPE + "]",
          // The computer path gives a waiting run's sandbox back and takes one again.
          "conditions[" + SandboxGiveBack.CONDITION + "]",
          // Both by the finished run's bookkeeping (run/RunBookkeeping), in one write.
          "usageRecorded",
          "webhooksQueued");

  /** On the computer route: the worker's (the outcome). */
  private static final Set<String> WORKER_FIELDS =
      Set.of(
          "usage",
          "cost",
          "actions",
          "diffCount",
          "response",
          "durationMs",
          "completedAt",
          "error",
          "deltaChannel");

  private static final Set<String> UNFINISHED = Set.of("pending", "running");

  /** One accepted write that changed a Run's status. */
  public record Change(String writer, String run, JsonNode before, JsonNode after) {}

  /** A status field changed by a writer that does not own it. */
  public record Violation(String run, String field, String writer, String owner, String change) {}

  private final List<Change> changes = new CopyOnWriteArrayList<>();

  /** A client for the operator under test: its requests name it. */
  public static KubernetesClient operatorClient(KubernetesClient base) {
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder(base.getConfiguration()).withUserAgent(OPERATOR_AGENT).build())
        .build();
  }

  /** {@code store}'s dispatcher with the writes to Runs recorded. */
  public Dispatcher around(Dispatcher store) {
    return new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath().split("\\?", 2)[0];
        Matcher run = RUN.matcher(path);
        if ((request.method() != HttpMethod.PUT && request.method() != HttpMethod.PATCH)
            || !run.matches()) {
          return store.dispatch(request);
        }
        String objectPath = path.replaceFirst("/status$", "");
        // Serialised: nothing else writes the Run between the two reads.
        synchronized (RunStatusOwners.this) {
          JsonNode before = status(store, request, objectPath);
          MockResponse response = store.dispatch(request);
          if (response.code() / 100 == 2) {
            JsonNode after = status(store, request, objectPath);
            // A write that removed the last finalizer deleted the Run: no status was written.
            if (!before.equals(after) && !after.isMissingNode()) {
              changes.add(new Change(writer(request), run.group(1), before, after));
            }
          }
          return response;
        }
      }
    };
  }

  private static JsonNode status(Dispatcher store, RecordedRequest request, String objectPath) {
    MockResponse current = store.dispatch(StrictStatusDispatcher.readOf(request, objectPath));
    if (current.code() != 200) {
      return MissingNode.getInstance();
    }
    return Serialization.unmarshal(current.getBody().readUtf8(), JsonNode.class).path("status");
  }

  private static String writer(RecordedRequest request) {
    String agent = request.getHeader("User-Agent");
    if (OPERATOR_AGENT.equals(agent)) {
      return OPERATOR;
    }
    return AgentWorker.USER_AGENT.equals(agent) ? WORKER : "another client (" + agent + ")";
  }

  /** The recorded changes of one Run, in order. */
  public List<Change> of(String run) {
    return changes.stream().filter(change -> change.run().equals(run)).toList();
  }

  /** Which writers changed each status field of a Run ({@code conditions[Type]} per type). */
  public Map<String, Set<String>> writersByField(String run) {
    Map<String, Set<String>> writers = new TreeMap<>();
    for (Change change : of(run)) {
      changedFields(change)
          .forEach(
              field -> writers.computeIfAbsent(field, f -> new TreeSet<>()).add(change.writer()));
    }
    return writers;
  }

  /** Every field of every recorded Run changed by a writer that is not its owner. */
  public List<Violation> violations() {
    List<Violation> violations = new ArrayList<>();
    Set<String> runs = new LinkedHashSet<>();
    changes.forEach(change -> runs.add(change.run()));
    for (String run : runs) {
      boolean computer =
          of(run).stream()
              .anyMatch(change -> "computer".equals(change.after().path("route").asText()));
      for (Change change : of(run)) {
        for (String field : changedFields(change)) {
          String owner = computer ? computerOwner(field, change) : OPERATOR;
          if (!owner.equals(change.writer())) {
            violations.add(
                new Violation(
                    run,
                    field,
                    change.writer(),
                    owner,
                    value(change.before(), field) + " → " + value(change.after(), field)));
          }
        }
      }
    }
    return violations;
  }

  /**
   * The one owner of {@code field} in a computer run's {@code change}. The phase is the routing's
   * up to {@code running} and the worker's from there; the event log's opening entry (the routing's
   * {@code started}) is written with the route, every later entry by the worker.
   */
  private static String computerOwner(String field, Change change) {
    return switch (field) {
      case "phase" ->
          UNFINISHED.contains(change.after().path("phase").asText()) ? OPERATOR : WORKER;
      // The routing write announces the log's opening entry (the store holds it), the worker
      // every later one.
      case "lastEventSeq" -> routes(change) ? OPERATOR : WORKER;
      default -> {
        if (OPERATOR_FIELDS.contains(field)) {
          yield OPERATOR;
        }
        yield WORKER_FIELDS.contains(field) ? WORKER : "nobody (a field no rule names)";
      }
    };
  }

  private static boolean routes(Change change) {
    return change.before().path("route").isMissingNode()
        && !change.after().path("route").isMissingNode();
  }

  private static Set<String> changedFields(Change change) {
    Map<String, JsonNode> before = fields(change.before());
    Map<String, JsonNode> after = fields(change.after());
    Set<String> names = new TreeSet<>(before.keySet());
    names.addAll(after.keySet());
    Set<String> changed = new TreeSet<>();
    for (String name : names) {
      JsonNode a = before.getOrDefault(name, MissingNode.getInstance());
      JsonNode b = after.getOrDefault(name, MissingNode.getInstance());
      if (!a.equals(b) && !(absent(a) && absent(b))) {
        changed.add(name);
      }
    }
    return changed;
  }

  /** A status's fields, its conditions one field per type. */
  private static Map<String, JsonNode> fields(JsonNode status) {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = status.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (field.getKey().equals("conditions")) {
        field
            .getValue()
            .forEach(condition ->
                fields.put("conditions[" + condition.path("type").asText() + "]", condition));
      } else {
        fields.put(field.getKey(), field.getValue());
      }
    }
    return fields;
  }

  private static boolean absent(JsonNode node) {
    return node.isMissingNode() || node.isNull();
  }

  private static String value(JsonNode status, String field) {
    JsonNode value = fields(status).getOrDefault(field, MissingNode.getInstance());
    String text = value.isMissingNode() ? "(none)" : value.toString();
    return text.length() > 120 ? text.substring(0, 120) + "…" : text;
  }
}
