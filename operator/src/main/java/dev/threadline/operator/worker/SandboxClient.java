package dev.threadline.operator.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.containers.SandboxProof;
import dev.threadline.models.TextDeltas;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The worker's side of docs/sandbox-api.md: tool calls (streamed, idempotent by id), the state of a
 * call, workspace snapshots and diffs, cancel. Every request carries the sandbox's credential.
 * Thread-safe; one per worker, shared by all its runs. Every answer is read to at most a bound for
 * its kind ({@link SandboxAnswers}).
 */
public final class SandboxClient {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** How long past a call's own timeout the worker waits for its answer. */
  static final Duration CALL_MARGIN = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;

  public SandboxClient() {
    this(HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build());
  }

  SandboxClient(HttpClient http) {
    this.http = http;
  }

  /** The limits the sandbox applies to one call. */
  public record Limits(int timeoutSeconds, int outputLimitBytes) {}

  /** How a call ended: its result and whether the sandbox had run it before. */
  public record Answer(JsonNode result, boolean replayed) {}

  /** What {@code GET /calls/{id}} says of a call the sandbox received. */
  public record CallState(boolean finished, JsonNode result) {}

  /**
   * Runs (or joins, or replays) the call {@code id} and waits for its result, handing the output
   * the sandbox streams before it to {@code output}.
   *
   * @throws SandboxException when the sandbox is unreachable, refuses the call or its answer ends
   *     without a result
   */
  public Answer call(
      SandboxAddress sandbox,
      String id,
      String tool,
      Map<String, Object> arguments,
      Limits limits,
      TextDeltas output) {
    ObjectNode body = JSON.createObjectNode();
    body.put("id", id);
    body.put("tool", tool);
    body.set("arguments", JSON.valueToTree(arguments));
    body.putObject("limits")
        .put("timeoutSeconds", limits.timeoutSeconds())
        .put("outputLimitBytes", limits.outputLimitBytes());
    HttpRequest request =
        request(sandbox, "/calls")
            .timeout(Duration.ofSeconds(limits.timeoutSeconds()).plus(CALL_MARGIN))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(write(body)))
            .build();
    HttpResponse<InputStream> response = send(request, HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      String refused = SandboxAnswers.text("POST /calls", response, SandboxAnswers.SMALL_BYTES);
      throw refusal("POST /calls", response.statusCode(), refused.lines().findFirst().orElse(""));
    }
    try (InputStream stream = response.body()) {
      SandboxAnswers.Lines lines =
          new SandboxAnswers.Lines(
              "POST /calls",
              stream,
              SandboxAnswers.callLineBytes(limits.outputLimitBytes()),
              SandboxAnswers.callStreamBytes(limits.outputLimitBytes()));
      for (String line = lines.next(); line != null; line = lines.next()) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode message = JSON.readTree(line);
        String type = message.path("type").asText();
        if ("result".equals(type)) {
          return new Answer(message.path("result"), message.path("replayed").asBoolean(false));
        }
        if ("output".equals(type) && !message.path("data").asText().isEmpty()) {
          output.onText(message.path("data").asText());
        }
      }
      throw new SandboxException("the sandbox's answer to call " + id + " ended without a result");
    } catch (JsonProcessingException e) {
      throw new SandboxException("the sandbox answered a line that is not JSON", 200, null);
    } catch (IOException e) {
      throw new SandboxException("the sandbox's answer broke off: " + e.getMessage(), 0, e);
    }
  }

  /** The state of a call the sandbox received; empty when it never received it. */
  public Optional<CallState> state(SandboxAddress sandbox, String id) {
    Reply response =
        exchange(
            "GET /calls/{id}",
            request(sandbox, "/calls/" + encode(id)).GET().build(),
            SandboxAnswers.STATE_BYTES);
    if (response.status() == 404) {
      return Optional.empty();
    }
    JsonNode state = expectOk("GET /calls/{id}", response);
    return Optional.of(
        new CallState("finished".equals(state.path("state").asText()), state.path("result")));
  }

  /**
   * Waits until the sandbox answers {@code GET /health}: a Pod reported ready may not listen yet (a
   * probe's period lags, or the Pod has no probe).
   *
   * @throws SandboxException when it has not answered within {@code patience}
   */
  public void awaitHealthy(SandboxAddress sandbox, Duration patience) {
    long deadline = System.nanoTime() + patience.toNanos();
    Duration pause = Duration.ofMillis(20);
    while (true) {
      try {
        HttpResponse<InputStream> response =
            http.send(
                HttpRequest.newBuilder(sandbox.resolve("/health"))
                    .timeout(CONNECT_TIMEOUT)
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        // Only the status counts; the body is drained (so the connection is reused), within bounds.
        SandboxAnswers.read("GET /health", response, SandboxAnswers.SMALL_BYTES);
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SandboxException("interrupted while waiting for the sandbox", 0, e);
      }
      if (System.nanoTime() > deadline) {
        throw new SandboxException(
            "the sandbox at "
                + sandbox.base().getAuthority()
                + " did not answer within "
                + patience.toSeconds()
                + " s");
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SandboxException("interrupted while waiting for the sandbox", 0, e);
      }
      pause =
          pause.multipliedBy(2).compareTo(Duration.ofMillis(500)) > 0
              ? Duration.ofMillis(500)
              : pause.multipliedBy(2);
    }
  }

  /** Writes a file of the workspace ({@code PUT /files}), folders made as needed. */
  public void put(SandboxAddress sandbox, String path, byte[] content) {
    HttpRequest request =
        request(sandbox, "/files?path=" + encode(path))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(content))
            .build();
    expectOk("PUT /files", exchange("PUT /files", request, SandboxAnswers.SMALL_BYTES));
  }

  /** Takes the workspace's baseline for diffs; returns the snapshot's id. */
  public String snapshot(SandboxAddress sandbox) {
    HttpRequest request =
        request(sandbox, "/workspace/snapshot").POST(HttpRequest.BodyPublishers.noBody()).build();
    return expectOk(
            "POST /workspace/snapshot",
            exchange("POST /workspace/snapshot", request, SandboxAnswers.SMALL_BYTES))
        .path("snapshot")
        .asText();
  }

  /** The workspace's changes since {@code snapshot}: {@code {diffs, changes}}. */
  public JsonNode diff(SandboxAddress sandbox, String snapshot) {
    HttpRequest request =
        request(sandbox, "/workspace/diff?snapshot=" + encode(snapshot)).GET().build();
    return expectOk(
        "GET /workspace/diff", exchange("GET /workspace/diff", request, SandboxAnswers.DIFF_BYTES));
  }

  /**
   * Brings the workspace back to {@code snapshot} (a rolled-back run's baseline): {@code {restored,
   * removed, unrestorable, unrestorableCount}}.
   */
  public JsonNode revert(SandboxAddress sandbox, String snapshot) {
    HttpRequest request =
        request(sandbox, "/workspace/revert?snapshot=" + encode(snapshot))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    return expectOk(
        "POST /workspace/revert",
        exchange("POST /workspace/revert", request, SandboxAnswers.SMALL_BYTES));
  }

  /** Starts the stdio MCP server {@code name} in the sandbox ({@code PUT /mcp/{name}}). */
  public void startMcp(
      SandboxAddress sandbox,
      String name,
      String command,
      java.util.List<String> args,
      Map<String, String> env) {
    ObjectNode body = JSON.createObjectNode();
    body.put("command", command);
    body.set("args", JSON.valueToTree(args));
    body.set("env", JSON.valueToTree(env));
    HttpRequest request =
        request(sandbox, "/mcp/" + encode(name))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(write(body)))
            .build();
    expectOk("PUT /mcp/{name}", exchange("PUT /mcp/{name}", request, SandboxAnswers.SMALL_BYTES));
  }

  /** Writes one JSON-RPC message to the stdin of the stdio MCP server {@code name}. */
  public void postMcp(SandboxAddress sandbox, String name, String message) {
    HttpRequest request =
        request(sandbox, "/mcp/" + encode(name) + "/messages")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(message))
            .build();
    Reply response = exchange("POST /mcp/{name}/messages", request, SandboxAnswers.SMALL_BYTES);
    if (response.status() / 100 != 2) {
      throw refusal("POST /mcp/{name}/messages", response.status(), response.body());
    }
  }

  /**
   * The stdout of the stdio MCP server {@code name}, one JSON-RPC message a line, until it ends;
   * the stream has no timeout, closing it ends the read.
   */
  public InputStream mcpMessages(SandboxAddress sandbox, String name) {
    HttpRequest request =
        HttpRequest.newBuilder(sandbox.resolve("/mcp/" + encode(name) + "/messages"))
            .header("Authorization", "Bearer " + sandbox.credential())
            .GET()
            .build();
    HttpResponse<InputStream> response = send(request, HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      try (InputStream body = response.body()) {
        throw refusal(
            "GET /mcp/{name}/messages",
            response.statusCode(),
            new String(body.readNBytes(300), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw refusal("GET /mcp/{name}/messages", response.statusCode(), "");
      }
    }
    return response.body();
  }

  /** Stops the stdio MCP server {@code name} and its children. */
  public void stopMcp(SandboxAddress sandbox, String name) {
    exchange(
        "DELETE /mcp/{name}",
        request(sandbox, "/mcp/" + encode(name)).DELETE().build(),
        SandboxAnswers.SMALL_BYTES);
  }

  /** Kills every running call (the run was cancelled or stopped). */
  public void cancelAll(SandboxAddress sandbox) {
    exchange(
        "DELETE /calls", request(sandbox, "/calls").DELETE().build(), SandboxAnswers.SMALL_BYTES);
  }

  /**
   * Binds a warm-pool sandbox to a run (docs/warm-pools.md): {@code pool} carries the pool's
   * credential; the sandbox takes {@code credential} and {@code env} and serves the run only.
   *
   * @return false when the sandbox refused the pool credential: it was bound before (by a worker
   *     that then stopped)
   */
  public boolean bind(SandboxAddress pool, String credential, Map<String, String> env) {
    ObjectNode body = JSON.createObjectNode().put("token", credential);
    ObjectNode variables = body.putObject("env");
    env.forEach(variables::put);
    HttpRequest request =
        request(pool, "/bind").POST(HttpRequest.BodyPublishers.ofString(write(body))).build();
    Reply response = exchange("POST /bind", request, SandboxAnswers.SMALL_BYTES);
    if (response.status() == 401) {
      return false;
    }
    expectOk("POST /bind", response);
    return true;
  }

  /** The sandbox's whole workspace as a zip. */
  public byte[] archive(SandboxAddress sandbox) {
    HttpResponse<InputStream> response =
        send(
            request(sandbox, "/workspace/archive").GET().build(),
            HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      SandboxAnswers.read("GET /workspace/archive", response, SandboxAnswers.SMALL_BYTES);
      throw refusal("GET /workspace/archive", response.statusCode(), "");
    }
    return SandboxAnswers.read("GET /workspace/archive", response, SandboxAnswers.ARCHIVE_BYTES);
  }

  /** Replaces the sandbox's workspace with a zip made by {@link #archive}. */
  public void restore(SandboxAddress sandbox, byte[] archive) {
    HttpRequest request =
        request(sandbox, "/workspace/archive")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(archive))
            .build();
    expectOk(
        "PUT /workspace/archive",
        exchange("PUT /workspace/archive", request, SandboxAnswers.SMALL_BYTES));
  }

  /**
   * Asks the sandbox to prove that it holds {@code sandbox}'s credential ({@link SandboxProof}): a
   * process that only answers on its address (another one holding the port) cannot.
   *
   * @throws SandboxException naming the address when the answer proves nothing
   */
  public void verify(SandboxAddress sandbox) {
    String challenge = SandboxProof.challenge();
    Reply response =
        exchange(
            "GET /health",
            HttpRequest.newBuilder(
                    sandbox.resolve("/health?" + SandboxProof.CHALLENGE + "=" + challenge))
                .timeout(CONNECT_TIMEOUT.plus(CALL_MARGIN))
                .GET()
                .build(),
            SandboxAnswers.SMALL_BYTES);
    String proof = null;
    if (response.status() == 200) {
      try {
        proof = JSON.readTree(response.body()).path(SandboxProof.PROOF).asText(null);
      } catch (JsonProcessingException notJson) {
        proof = null;
      }
    }
    if (!SandboxProof.proves(sandbox.credential(), challenge, proof)) {
      throw new SandboxException(
          "the process answering at "
              + sandbox.base().getAuthority()
              + " is not this run's sandbox: it cannot prove the sandbox's credential (is another"
              + " process holding that address?)");
    }
  }

  private static HttpRequest.Builder request(SandboxAddress sandbox, String pathAndQuery) {
    return HttpRequest.newBuilder(sandbox.resolve(pathAndQuery))
        .timeout(CONNECT_TIMEOUT.plus(CALL_MARGIN))
        .header("Authorization", "Bearer " + sandbox.credential());
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
    try {
      return http.send(request, body);
    } catch (IOException e) {
      throw new SandboxException(
          "the sandbox at " + request.uri().getAuthority() + " cannot be reached: " + e, 0, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SandboxException("interrupted while waiting for the sandbox", 0, e);
    }
  }

  /** A whole answer, read to at most its bound ({@link SandboxAnswers}). */
  private record Reply(int status, String body) {}

  private Reply exchange(String what, HttpRequest request, int maxBytes) {
    HttpResponse<InputStream> response = send(request, HttpResponse.BodyHandlers.ofInputStream());
    return new Reply(response.statusCode(), SandboxAnswers.text(what, response, maxBytes));
  }

  private static JsonNode expectOk(String what, Reply response) {
    if (response.status() / 100 != 2) {
      throw refusal(what, response.status(), response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw new SandboxException(what + ": the sandbox answered something that is not JSON");
    }
  }

  /** The sandbox's {@code {error, message}}, bounded: it is untrusted text. */
  private static SandboxException refusal(String what, int status, String body) {
    String detail = body == null ? "" : body.strip();
    if (detail.length() > 300) {
      detail = detail.substring(0, 300);
    }
    return new SandboxException(
        what + " was refused with " + status + (detail.isEmpty() ? "" : ": " + detail),
        status,
        null);
  }

  private static String write(JsonNode body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serialises", e);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
