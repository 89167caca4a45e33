package dev.threadline.runner.serve;

import static dev.threadline.runner.serve.SandboxHarness.assertError;
import static dev.threadline.runner.serve.SandboxHarness.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code /calls} of a real {@code serve} over loopback HTTP: tools, streaming, idempotency, kill.
 */
class SandboxCallsTest extends SandboxServerTest {
  @Test
  void commandStreamsItsOutputThenItsResult() throws Exception {
    List<JsonNode> lines =
        sandbox.ndjson(
            "POST",
            "/calls",
            call("c1", "run_command", Map.of("command", "echo one; sleep 0.3; echo two; exit 3")));

    List<JsonNode> output = lines.subList(0, lines.size() - 1);
    assertThat(output)
        .allSatisfy(line -> assertThat(line.get("type").asText()).isEqualTo("output"));
    assertThat(output.stream().map(line -> line.get("data").asText()).reduce("", String::concat))
        .isEqualTo("one\ntwo\n");
    assertThat(output).hasSizeGreaterThanOrEqualTo(2); // two writes 300 ms apart are two pieces
    JsonNode result = lines.getLast();
    assertThat(result.get("type").asText()).isEqualTo("result");
    assertThat(result.get("replayed").asBoolean()).isFalse();
    assertThat(result.get("durationMs").asLong()).isGreaterThanOrEqualTo(300);
    assertThat(result.at("/result/type").asText()).isEqualTo("command_execution");
    assertThat(result.at("/result/exitCode").asInt()).isEqualTo(3);
    assertThat(result.at("/result/succeeded").asBoolean()).isFalse();
    assertThat(result.at("/result/output").asText()).isEqualTo("one\ntwo\n");
    assertThat(json(result.at("/result/forModel").asText()).get("exit_code").asInt()).isEqualTo(3);
  }

  @Test
  void fileToolsWorkInTheWorkspace() throws Exception {
    JsonNode written =
        resultOf(call("w", "write_file", Map.of("path", "src/a.txt", "content", "hello")));
    assertThat(written.get("type").asText()).isEqualTo("file_write");
    assertThat(Files.readString(sandbox.workspace.resolve("src/a.txt"))).isEqualTo("hello");

    JsonNode edit =
        resultOf(
            call(
                "e",
                "edit_file",
                Map.of("path", "src/a.txt", "old_text", "hello", "new_text", "bye")));
    assertThat(edit.get("succeeded").asBoolean()).isTrue();
    assertThat(resultOf(call("r", "read_file", Map.of("path", "src/a.txt"))).get("output").asText())
        .isEqualTo("bye");
    assertThat(resultOf(call("l", "list_files", Map.of())).get("output").asText())
        .contains("src/", "src/a.txt");

    JsonNode outside = resultOf(call("o", "read_file", Map.of("path", "../token")));
    assertThat(outside.get("succeeded").asBoolean()).isFalse();
    assertThat(outside.get("output").asText()).contains("outside the workspace");
  }

  @Test
  void argumentsAsTheModelWroteThemMayBeMalformed() throws Exception {
    JsonNode result =
        resultOf("{\"id\":\"m\",\"tool\":\"run_command\",\"arguments\":\"{not json\"}");

    assertThat(result.get("succeeded").asBoolean()).isFalse();
    assertThat(result.get("output").asText()).contains("not a JSON object");
  }

  @Test
  void aFinishedCallIsReplayedNotRunAgain() throws Exception {
    String body = call("once", "run_command", Map.of("command", "echo x >> count.txt; echo ran"));
    resultOf(body);

    List<JsonNode> replay = sandbox.ndjson("POST", "/calls", body);

    assertThat(replay).hasSize(1);
    assertThat(replay.getFirst().get("replayed").asBoolean()).isTrue();
    assertThat(replay.getFirst().at("/result/output").asText()).isEqualTo("ran\n");
    assertThat(Files.readString(sandbox.workspace.resolve("count.txt"))).isEqualTo("x\n");
    JsonNode state = json(sandbox.send("GET", "/calls/once", (String) null));
    assertThat(state.get("state").asText()).isEqualTo("finished");
    assertThat(state.at("/result/exitCode").asInt()).isZero();
  }

  @Test
  void theSameIdWithAnotherCallIsAConflict() throws Exception {
    resultOf(call("same", "run_command", Map.of("command", "true")));

    HttpResponse<String> conflict =
        sandbox.send("POST", "/calls", call("same", "run_command", Map.of("command", "false")));

    assertError(conflict, 409, "another tool or other arguments");
    assertThat(json(conflict).get("error").asText()).isEqualTo("conflict");
  }

  @Test
  void aCallSurvivesItsConnectionAndCanBeJoined() throws Exception {
    Path marker = sandbox.workspace.resolve("done");
    String body =
        call(
            "long",
            "run_command",
            Map.of("command", "echo started; sleep 1; touch done; echo end"));
    HttpResponse<Stream<String>> first = sandbox.stream("POST", "/calls", body);
    Iterator<String> lines = first.body().iterator();
    assertThat(json(lines.next()).get("data").asText()).isEqualTo("started\n");
    first.body().close(); // the worker's connection breaks mid-call

    assertThat(json(sandbox.send("GET", "/calls/long", (String) null)).get("state").asText())
        .isEqualTo("running");
    List<JsonNode> joined = sandbox.ndjson("POST", "/calls", body);

    JsonNode result = joined.getLast();
    assertThat(result.at("/result/output").asText()).isEqualTo("started\nend\n");
    assertThat(result.at("/result/exitCode").asInt()).isZero();
    assertThat(marker).exists();
  }

  @Test
  void aTimeoutKillsTheProcessTreeWithExitCode124() throws Exception {
    JsonNode result =
        sandbox
            .ndjson(
                "POST",
                "/calls",
                "{\"id\":\"t\",\"tool\":\"run_command\",\"arguments\":{\"command\":\"sleep 30 &"
                    + " echo $! > child.pid; wait\"},\"limits\":{\"timeoutSeconds\":1}}")
            .getLast();

    assertThat(result.at("/result/exitCode").asInt()).isEqualTo(124);
    assertThat(result.at("/result/output").asText()).contains("timed out after 1 s");
    assertChildDead("child.pid");
  }

  @Test
  void deleteKillsARunningCallAndItsChildren() throws Exception {
    String body =
        call("k", "run_command", Map.of("command", "sleep 30 & echo $! > k.pid; echo up; wait"));
    HttpResponse<Stream<String>> running = sandbox.stream("POST", "/calls", body);
    Iterator<String> lines = running.body().iterator();
    assertThat(json(lines.next()).get("data").asText()).isEqualTo("up\n");

    HttpResponse<String> killed = sandbox.send("DELETE", "/calls/k", (String) null);

    assertThat(json(killed).get("state").asText()).isEqualTo("finished");
    JsonNode result = json(lines.next());
    assertThat(result.at("/result/exitCode").asInt()).isEqualTo(137); // SIGKILL
    assertThat(result.at("/result/output").asText())
        .endsWith("[command stopped: the run was cancelled]");
    assertChildDead("k.pid");
    assertThat(sandbox.send("DELETE", "/calls/unknown", (String) null).statusCode()).isEqualTo(404);
  }

  @Test
  void deleteAllCancelsEveryRunningCall() throws Exception {
    sandbox.stream("POST", "/calls", call("a", "run_command", Map.of("command", "sleep 30")));
    sandbox.stream("POST", "/calls", call("b", "run_command", Map.of("command", "sleep 30")));

    JsonNode cancelled = json(sandbox.send("DELETE", "/calls", (String) null));

    assertThat(cancelled.get("cancelled")).extracting(JsonNode::asText).contains("a", "b");
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() ->
            assertThat(json(sandbox.send("GET", "/calls/b", (String) null)).get("state").asText())
                .isEqualTo("finished"));
  }

  @Test
  void badCallsAreRefusedNamingTheField() throws Exception {
    assertError(sandbox.send("POST", "/calls", "{\"tool\":\"run_command\"}"), 400, "id");
    assertError(
        sandbox.send("POST", "/calls", "{\"id\":\"x\",\"tool\":\"rm_rf\"}"), 400, "tool must be");
    assertError(
        sandbox.send(
            "POST",
            "/calls",
            "{\"id\":\"x\",\"tool\":\"run_command\",\"limits\":{\"timeoutSeconds\":0}}"),
        400,
        "limits.timeoutSeconds");
    assertError(sandbox.send("POST", "/calls", "[1]"), 400, "JSON object");
    assertError(sandbox.send("GET", "/calls/never", (String) null), 404, "never");
    assertThat(sandbox.send("GET", "/calls/a%2Fb", (String) null).statusCode()).isEqualTo(400);
    HttpResponse<String> anonymous =
        SandboxHarness.http()
            .send(
                java.net.http.HttpRequest.newBuilder(sandbox.uri("/calls/x")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
  }

  private JsonNode resultOf(String body) throws Exception {
    JsonNode last = sandbox.ndjson("POST", "/calls", body).getLast();
    assertThat(last.get("type").asText()).isEqualTo("result");
    return last.get("result");
  }

  private void assertChildDead(String pidFile) throws Exception {
    long pid = Long.parseLong(Files.readString(sandbox.workspace.resolve(pidFile)).strip());
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  private static String call(String id, String tool, Map<String, Object> arguments)
      throws Exception {
    return SandboxHarness.JSON.writeValueAsString(
        Map.of("id", id, "tool", tool, "arguments", arguments));
  }
}
