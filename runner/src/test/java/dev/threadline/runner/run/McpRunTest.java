package dev.threadline.runner.run;

import static dev.threadline.core.events.RunnerEventType.ERROR;
import static dev.threadline.core.events.RunnerEventType.SETUP;
import static dev.threadline.core.events.RunnerEventType.TOOL_CALL;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.models.ToolDefinition;
import dev.threadline.runner.mcp.CalcMcpServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers in a run: a real stdio server's tools are offered and called; broken servers are
 * skipped.
 */
class McpRunTest {

  @TempDir Path dir;
  private final FakeModel model = new FakeModel();

  @Test
  void offersAStdioServersToolsAndCallsThem() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String runJson =
        """
        {"runId":"run_mcp","message":"Add 2 and 3",
         "mcpServers":[{"type":"stdio","name":"calc","command":%s,"args":["-cp",%s,%s],
                        "env":{"GREETING":"$CALC_GREETING","PLAIN":"plain"},"startupTimeoutSec":60,"toolTimeoutSec":20}]}
        """
            .formatted(
                RunHarness.quote(java),
                RunHarness.quote(System.getProperty("java.class.path")),
                RunHarness.quote(CalcMcpServer.class.getName()));
    model
        .thenCall("mcp__calc__add", Map.of("a", 2, "b", 3))
        .thenCall("mcp__calc__env", Map.of("name", "GREETING"))
        .thenCall("mcp__calc__env", Map.of("name", "THREADLINE_MODEL_API_KEY"))
        .thenSay("2 + 3 = 5");

    RunHarness.Output run =
        new RunHarness(
                dir,
                Map.of(
                    "CALC_GREETING",
                    "hello from the runner's env",
                    "THREADLINE_MODEL_API_KEY",
                    "sk-hidden"),
                model::create)
            .run(runJson);

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.ofType(SETUP).getFirst().text("text"))
        .isEqualTo("Started MCP server calc with 2 tools: mcp__calc__add, mcp__calc__env");
    assertThat(model.requests.getFirst().tools())
        .extracting(ToolDefinition::name)
        .contains("mcp__calc__add", "mcp__calc__env");
    List<JsonNode> calls = run.ofType(TOOL_CALL).stream().<JsonNode>map(RunnerEvent::data).toList();
    assertThat(calls.getFirst().path("status").asText()).isEqualTo("completed");
    assertThat(calls.getFirst().path("tool").toString())
        .isEqualTo("{\"type\":\"mcp_tool\",\"name\":\"mcp__calc__add\",\"output\":\"5\"}");
    assertThat(model.requests.get(1).messages().getLast().content()).isEqualTo("5");
    // $NAME values come from the runner's environment; the model key is not passed on.
    assertThat(calls.get(1).path("tool").path("output").asText())
        .isEqualTo("hello from the runner's env");
    assertThat(calls.get(2).path("tool").path("output").asText()).isEqualTo("(unset)");
    assertThat(run.last().data().path("actions").get(0).asText())
        .isEqualTo("called mcp__calc__add");
  }

  @Test
  void aServerThatDoesNotStartIsAnErrorAndTheRunGoesOn() throws Exception {
    List<String> authorizations = new CopyOnWriteArrayList<>();
    HttpServer web = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    web.createContext(
        "/",
        exchange -> {
          authorizations.add(
              String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
          exchange.sendResponseHeaders(401, -1);
          exchange.close();
        });
    web.start();
    try {
      String runJson =
          """
          {"runId":"run_mcp_bad","message":"Run `echo still here`",
           "mcpServers":[{"type":"stdio","name":"slow","command":"sleep","args":["30"],"startupTimeoutSec":1},
                         {"type":"stdio","name":"missing","command":"/nonexistent/mcp-server"},
                         {"type":"stdio","name":"off","command":"/nonexistent/too","enabled":false},
                         {"type":"http","name":"web","url":"http://127.0.0.1:%d/mcp","bearerTokenEnv":"MCP_WEB_TOKEN","startupTimeoutSec":5}]}
          """
              .formatted(web.getAddress().getPort());

      long start = System.nanoTime();
      RunHarness.Output run =
          new RunHarness(
                  dir,
                  Map.of("MCP_WEB_TOKEN", "tok-secret-42"),
                  dev.threadline.models.ModelProviders::create)
              .run(runJson);

      // The servers start in parallel, and a missing command fails at once rather than after 30 s.
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(java.time.Duration.ofSeconds(10));
      assertThat(run.exitCode()).isZero();
      assertThat(run.ofType(ERROR))
          .extracting(e -> e.text("message"))
          .satisfiesExactlyInAnyOrder(
              slow ->
                  assertThat(slow)
                      .isEqualTo("MCP server slow is not available: did not start within 1 s"),
              missing ->
                  assertThat(missing)
                      .isEqualTo(
                          "MCP server missing is not available: its command /nonexistent/mcp-server"
                              + " is not an executable file"),
              http ->
                  assertThat(http)
                      .startsWith("MCP server web is not available: ")
                      .contains("Authorization error"));
      assertThat(run.ofType(SETUP)).isEmpty();
      assertThat(run.ofType(TOOL_CALL).getFirst().data().path("tool").path("output").asText())
          .isEqualTo("still here\n");
      assertThat(authorizations).isNotEmpty().allMatch("Bearer tok-secret-42"::equals);
      assertThat(run.stdout()).doesNotContain("tok-secret-42");
    } finally {
      web.stop(0);
    }
  }
}
