package dev.threadline.runner.serve;

import com.sun.net.httpserver.HttpExchange;
import dev.threadline.runner.serve.calls.CallRequest;
import dev.threadline.runner.serve.calls.ToolCallExecution;
import dev.threadline.runner.serve.calls.ToolCallExecution.Finished;
import dev.threadline.runner.serve.calls.ToolCallExecution.Progress;
import dev.threadline.runner.serve.calls.ToolCalls;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /calls}: tool calls, posted and followed as NDJSON ({@code output} lines, then one {@code
 * result} line), asked about, and killed.
 */
final class CallsEndpoint {
  /** A write_file call carries the whole file: as much as an upload may be, and some JSON. */
  private static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  /** How long DELETE waits for a killed call to record its result. */
  private static final long KILL_WAIT_MILLIS = 5_000;

  private final ToolCalls calls;

  CallsEndpoint(ToolCalls calls) {
    this.calls = calls;
  }

  void handle(HttpExchange exchange) throws IOException {
    String id = Exchanges.subPath(exchange);
    if (id == null) {
      throw FileApiException.notFound("no such endpoint: " + exchange.getRequestURI().getPath());
    }
    String method = exchange.getRequestMethod();
    if (id.isEmpty()) {
      switch (method) {
        case "POST" -> post(exchange);
        case "DELETE" -> Exchanges.json(exchange, 200, Map.of("cancelled", calls.cancelAll()));
        default -> throw new FileApiException(405, "use POST or DELETE");
      }
      return;
    }
    CallRequest.requireId(id);
    ToolCallExecution call =
        calls
            .find(id)
            .orElseThrow(() -> FileApiException.notFound("no call " + id + " was received"));
    switch (method) {
      case "GET" -> Exchanges.json(exchange, 200, describe(call));
      case "DELETE" -> {
        call.kill();
        awaitEnd(call);
        Exchanges.json(exchange, 200, Map.of("id", id, "state", call.state()));
      }
      default -> throw new FileApiException(405, "use GET or DELETE");
    }
  }

  private void post(HttpExchange exchange) throws IOException {
    CallRequest request = CallRequest.parse(Exchanges.body(exchange, MAX_BODY_BYTES));
    ToolCallExecution call = calls.submit(request);
    boolean replayed = call.finished().isPresent();
    // A new call is followed from its start; one already running is joined from now on.
    int position = call.request() == request ? 0 : call.position();
    Exchanges.Ndjson stream = Exchanges.ndjson(exchange);
    try {
      while (true) {
        Progress progress = call.next(position);
        for (String piece : progress.output()) {
          stream.object(Map.of("type", "output", "data", piece));
        }
        position += progress.output().size();
        if (progress.finished() != null) {
          stream.object(resultLine(progress.finished(), replayed));
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the sandbox is stopping");
    }
    // A broken connection ends only this follower: the call goes on and keeps its result.
  }

  private static Map<String, Object> resultLine(Finished finished, boolean replayed) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", "result");
    line.put("result", finished.result());
    line.put("durationMs", finished.durationMs());
    line.put("replayed", replayed);
    return line;
  }

  private static Map<String, Object> describe(ToolCallExecution call) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", call.id());
    body.put("state", call.state());
    call.finished()
        .ifPresent(finished -> {
          body.put("result", finished.result());
          body.put("durationMs", finished.durationMs());
        });
    return body;
  }

  private static void awaitEnd(ToolCallExecution call) throws InterruptedIOException {
    try {
      call.awaitEnd(KILL_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the sandbox is stopping");
    }
  }
}
