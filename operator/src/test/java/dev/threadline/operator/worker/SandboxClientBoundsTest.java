package dev.threadline.operator.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hostile sandbox stand-in that answers without end: every read of its answers stops at the bound
 * for its kind with an error naming it — no OutOfMemoryError, no read that never ends — and the
 * stand-in sees its connection dropped soon after (the work is bounded, not only the memory).
 */
class SandboxClientBoundsTest {
  private static final long MIB = 1024 * 1024;
  private static final SandboxClient.Limits LIMITS = new SandboxClient.Limits(30, 65_536);

  private HttpServer server;
  private final Map<String, AtomicLong> sent = new ConcurrentHashMap<>();
  private final SandboxClient client = new SandboxClient();

  /** Whether {@code POST /calls} answers one line without end, or output lines without end. */
  private volatile boolean oneLine;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    // Each path answers the way a hostile sandbox could.
    server.createContext("/workspace/diff", exchange -> endless(exchange, "diff", (byte) 'x'));
    server.createContext("/workspace/archive", exchange -> endless(exchange, "archive", (byte) 0));
    server.createContext(
        "/workspace/snapshot",
        exchange -> whole(exchange, "{\"snapshot\":\"" + "a".repeat(100_000)));
    server.createContext(
        "/calls",
        exchange -> {
          if (exchange.getRequestURI().getPath().equals("/calls")) {
            exchange.getRequestBody().readAllBytes();
            endlessLines(exchange, oneLine);
          } else {
            endless(exchange, "state", (byte) ' ');
          }
        });
    server.createContext("/health", exchange -> endless(exchange, "health", (byte) '{'));
    server.createContext(
        "/bind",
        exchange -> {
          // Declares a body far past the bound: refused on the header, none of it read.
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().set("Content-Length", Long.toString(1L << 40));
          exchange.sendResponseHeaders(200, 1L << 40);
          exchange.getResponseBody().write('{');
          exchange.getResponseBody().flush();
          sleepQuietly();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void anEndlessDiffStopsAtItsBound() {
    assertThatThrownBy(() -> client.diff(address(), "snap-1"))
        .isInstanceOf(SandboxException.class)
        .hasMessage(
            "GET /workspace/diff: the sandbox's answer is larger than 64 MiB, the most read of it");
    assertDropped("diff", SandboxAnswers.DIFF_BYTES);
  }

  @Test
  void anEndlessArchiveStopsAtItsBound() {
    assertThatThrownBy(() -> client.archive(address()))
        .isInstanceOf(SandboxException.class)
        .hasMessageContaining("GET /workspace/archive: the sandbox's answer is larger than 64 MiB");
    assertDropped("archive", SandboxAnswers.ARCHIVE_BYTES);
  }

  @Test
  void anOversizedSmallAnswerStopsAt64KiB() {
    assertThatThrownBy(() -> client.snapshot(address()))
        .isInstanceOf(SandboxException.class)
        .hasMessage(
            "POST /workspace/snapshot: the sandbox's answer is larger than 64 KiB, the most read"
                + " of it");
  }

  @Test
  void aDeclaredLengthPastTheBoundIsRefusedWithoutReading() {
    assertThatThrownBy(() -> client.bind(address(), "credential", Map.of()))
        .isInstanceOf(SandboxException.class)
        .hasMessageContaining("POST /bind: the sandbox's answer is larger than 64 KiB");
  }

  @Test
  void anEndlessCallStateStopsAtItsBound() {
    assertThatThrownBy(() -> client.state(address(), "tool_1"))
        .isInstanceOf(SandboxException.class)
        .hasMessage(
            "GET /calls/{id}: the sandbox's answer is larger than 36 MiB, the most read of it");
    assertDropped("state", SandboxAnswers.STATE_BYTES);
  }

  @Test
  void aCallLineWithoutEndStopsAtTheLineBound() {
    oneLine = true;
    assertThatThrownBy(() ->
            client.call(
                address(), "tool_1", "run_command", Map.of("command", "yes"), LIMITS, text -> {}))
        .isInstanceOf(SandboxException.class)
        .hasMessage(
            "POST /calls: the sandbox answered a line longer than "
                + SandboxAnswers.describe(SandboxAnswers.callLineBytes(65_536)));
    assertThat(SandboxAnswers.describe(SandboxAnswers.callLineBytes(65_536))).isEqualTo("4352 KiB");
    assertDropped("line", SandboxAnswers.callLineBytes(65_536));
  }

  @Test
  void endlessOutputLinesStopAtTheCallsBound() {
    StringBuilder seen = new StringBuilder();
    assertThatThrownBy(() ->
            client.call(
                address(),
                "tool_1",
                "run_command",
                Map.of("command", "yes"),
                LIMITS,
                text -> {
                  if (seen.length() < 10) {
                    seen.append(text);
                  }
                }))
        .isInstanceOf(SandboxException.class)
        .hasMessage(
            "POST /calls: the sandbox's answer is larger than "
                + SandboxAnswers.describe(SandboxAnswers.callStreamBytes(65_536))
                + ", the most read of it");
    assertThat(seen).startsWith("y");
    assertDropped("lines", SandboxAnswers.callStreamBytes(65_536));
  }

  @Test
  void anEndlessHealthAnswerStopsAt64KiB() {
    assertThatThrownBy(() -> client.awaitHealthy(address(), Duration.ofSeconds(5)))
        .isInstanceOf(SandboxException.class)
        .hasMessageContaining("GET /health: the sandbox's answer is larger than 64 KiB");
    assertDropped("health", SandboxAnswers.SMALL_BYTES);
  }

  @Test
  void anEndlessMcpLineStopsAtItsBound() {
    InputStream endless =
        new InputStream() {
          @Override
          public int read() {
            return 'x';
          }

          @Override
          public int read(byte[] buffer, int offset, int length) {
            Arrays.fill(buffer, offset, offset + length, (byte) 'x');
            return length;
          }
        };
    SandboxAnswers.Lines lines =
        new SandboxAnswers.Lines(
            "GET /mcp/shout/messages", endless, SandboxAnswers.MCP_LINE_BYTES, Long.MAX_VALUE);

    assertThatThrownBy(lines::next)
        .isInstanceOf(SandboxException.class)
        .hasMessage("GET /mcp/shout/messages: the sandbox answered a line longer than 16 MiB");
  }

  @Test
  void linesAreSplitAsAReaderSplitsThem() throws IOException {
    SandboxAnswers.Lines lines =
        new SandboxAnswers.Lines(
            "test",
            new ByteArrayInputStream("a\r\nbé\n\nlast".getBytes(StandardCharsets.UTF_8)),
            16,
            1024);

    assertThat(lines.next()).isEqualTo("a");
    assertThat(lines.next()).isEqualTo("bé");
    assertThat(lines.next()).isEmpty();
    assertThat(lines.next()).isEqualTo("last");
    assertThat(lines.next()).isNull();
    assertThat(lines.next()).isNull();
  }

  private SandboxAddress address() {
    return SandboxAddress.of("127.0.0.1", server.getAddress().getPort(), "credential");
  }

  /** The stand-in stopped sending soon after the bound: its writes failed on a dropped socket. */
  private void assertDropped(String what, long bound) {
    AtomicLong counter = sent.computeIfAbsent(what, key -> new AtomicLong());
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          long before = counter.get();
          Thread.sleep(200);
          assertThat(counter.get()).as("still sending").isEqualTo(before);
        });
    assertThat(counter.get()).isLessThan(bound + 32 * MIB);
  }

  private void endless(HttpExchange exchange, String what, byte fill) throws IOException {
    AtomicLong counter = sent.computeIfAbsent(what, key -> new AtomicLong());
    byte[] chunk = new byte[64 * 1024];
    Arrays.fill(chunk, fill);
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream body = exchange.getResponseBody()) {
      while (true) {
        body.write(chunk);
        counter.addAndGet(chunk.length);
      }
    } catch (IOException dropped) {
      exchange.close();
    }
  }

  private void endlessLines(HttpExchange exchange, boolean oneLine) throws IOException {
    AtomicLong counter = sent.computeIfAbsent(oneLine ? "line" : "lines", key -> new AtomicLong());
    byte[] chunk =
        (oneLine ? "y".repeat(1024) : "{\"type\":\"output\",\"data\":\"y\"}\n".repeat(64))
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream body = exchange.getResponseBody()) {
      if (oneLine) {
        body.write("{\"type\":\"output\",\"data\":\"".getBytes(StandardCharsets.UTF_8));
      }
      while (true) {
        body.write(chunk);
        counter.addAndGet(chunk.length);
      }
    } catch (IOException dropped) {
      exchange.close();
    }
  }

  private static void whole(HttpExchange exchange, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void sleepQuietly() {
    try {
      Thread.sleep(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
