package dev.threadline.operator.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.containers.SandboxProof;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-process stand-in for a sandbox: the tool-call part of docs/sandbox-api.md on loopback
 * (credential, calls idempotent by id and surviving their connection, call state, snapshot and
 * diff, cancel). What a {@code run_command} does is the test's {@code commands} function; the other
 * tools answer as the runner would, on an in-memory workspace.
 */
public final class StandInSandbox implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final String credential = "stand-in-credential-" + System.nanoTime();
  private final java.util.Set<String> accepted = ConcurrentHashMap.newKeySet();

  /** The credential its {@code /health} proves: the last one given, as a Pod's sandbox would. */
  private volatile String proved = credential;

  private final Function<String, CommandOutcome> commands;
  private final Map<String, Call> calls = new ConcurrentHashMap<>();
  private final Map<String, String> files = new ConcurrentHashMap<>();
  private final AtomicInteger executions = new AtomicInteger();

  /** What a command printed and how it exited. */
  public record CommandOutcome(int exitCode, String output) {}

  private record Call(String tool, JsonNode arguments, CompletableFuture<ObjectNode> result) {}

  public StandInSandbox(Function<String, CommandOutcome> commands) throws IOException {
    this.commands = commands;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::handle);
    server.start();
  }

  public SandboxAddress address() {
    return SandboxAddress.of("127.0.0.1", server.getAddress().getPort(), credential);
  }

  /**
   * Accepts this credential too from now on (the one the operator made for a sandbox: Pods that
   * share this stand-in's port each have their own).
   */
  public void credential(String value) {
    accepted.add(value);
    proved = value;
  }

  /** How many calls were executed (a replayed or joined call is not executed again). */
  public int executions() {
    return executions.get();
  }

  /** The ids of the calls received, each once. */
  public List<String> callIds() {
    return List.copyOf(calls.keySet());
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (exchange.getRequestURI().getPath().equals("/health")) {
        String query = exchange.getRequestURI().getQuery();
        String challenge =
            query != null && query.startsWith(SandboxProof.CHALLENGE + "=")
                ? query.substring(SandboxProof.CHALLENGE.length() + 1)
                : null;
        send(
            exchange,
            200,
            challenge == null
                ? "{\"healthy\":true}"
                : "{\"healthy\":true,\"proof\":\"" + SandboxProof.of(proved, challenge) + "\"}");
        return;
      }
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      if (auth == null
          || !auth.startsWith("Bearer ")
          || !(auth.substring(7).equals(credential) || accepted.contains(auth.substring(7)))) {
        send(exchange, 401, "{\"error\":\"unauthorized\",\"message\":\"no credential\"}");
        return;
      }
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      if (method.equals("POST") && path.equals("/calls")) {
        postCall(exchange);
      } else if (method.equals("GET") && path.startsWith("/calls/")) {
        Call call = calls.get(path.substring("/calls/".length()));
        if (call == null) {
          send(exchange, 404, "{\"error\":\"not_found\",\"message\":\"no such call\"}");
          return;
        }
        ObjectNode state = JSON.createObjectNode().put("id", path.substring(7));
        if (call.result().isDone()) {
          state.put("state", "finished").set("result", call.result().join());
        } else {
          state.put("state", "running");
        }
        send(exchange, 200, state.toString());
      } else if (method.equals("DELETE") && path.equals("/calls")) {
        send(exchange, 200, "{}");
      } else if (method.equals("POST") && path.equals("/workspace/snapshot")) {
        send(exchange, 200, "{\"snapshot\":\"s1\"}");
      } else if (method.equals("GET") && path.equals("/workspace/diff")) {
        ObjectNode diff = JSON.createObjectNode();
        var diffs = diff.putArray("diffs");
        files.forEach((file, content) ->
            diffs
                .addObject()
                .put("path", file)
                .put("change", "create")
                .put("additions", content.lines().count())
                .put("deletions", 0)
                .put("content", content));
        diff.putArray("changes");
        send(exchange, 200, diff.toString());
      } else {
        send(exchange, 404, "{\"error\":\"not_found\",\"message\":\"" + path + "\"}");
      }
    }
  }

  private void postCall(HttpExchange exchange) throws IOException {
    JsonNode body = JSON.readTree(exchange.getRequestBody());
    String id = body.path("id").asText();
    Call fresh =
        new Call(body.path("tool").asText(), body.path("arguments"), new CompletableFuture<>());
    Call call = calls.putIfAbsent(id, fresh);
    boolean replayed = call != null && call.result().isDone();
    if (call == null) {
      call = fresh;
      executions.incrementAndGet();
      // Runs apart from the connection: a worker that goes away does not stop it.
      Thread.ofVirtual().start(() -> fresh.result().complete(execute(fresh)));
    } else if (!call.tool().equals(fresh.tool()) || !call.arguments().equals(fresh.arguments())) {
      send(exchange, 409, "{\"error\":\"conflict\",\"message\":\"another call has this id\"}");
      return;
    }
    exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
    exchange.sendResponseHeaders(200, 0);
    ObjectNode line = JSON.createObjectNode().put("type", "result");
    line.set("result", call.result().join());
    line.put("durationMs", 1).put("replayed", replayed);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private ObjectNode execute(Call call) {
    JsonNode arguments = call.arguments();
    ObjectNode result = JSON.createObjectNode();
    switch (call.tool()) {
      case "run_command" -> {
        String command = arguments.path("command").asText();
        CommandOutcome outcome = commands.apply(command);
        ObjectNode forModel =
            JSON.createObjectNode()
                .put("exit_code", outcome.exitCode())
                .put("output", outcome.output());
        result
            .put("type", "command_execution")
            .put("succeeded", outcome.exitCode() == 0)
            .put("command", command)
            .putNull("path")
            .put("output", outcome.output())
            .put("exitCode", outcome.exitCode())
            .put("forModel", forModel.toString());
      }
      case "write_file" -> {
        String path = arguments.path("path").asText();
        files.put(path, arguments.path("content").asText());
        result
            .put("type", "file_write")
            .put("succeeded", true)
            .put("path", path)
            .put("output", "created " + path);
      }
      default ->
          result
              .put("type", "file_read")
              .put("succeeded", false)
              .put("output", "error: the stand-in does not do " + call.tool());
    }
    return result;
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
