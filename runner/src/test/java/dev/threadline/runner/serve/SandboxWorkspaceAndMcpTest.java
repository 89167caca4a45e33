package dev.threadline.runner.serve;

import static dev.threadline.runner.serve.SandboxHarness.assertError;
import static dev.threadline.runner.serve.SandboxHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Workspace diffs and piped stdio MCP servers of a real {@code serve} over loopback HTTP. */
class SandboxWorkspaceAndMcpTest extends SandboxServerTest {
  @Test
  void diffShowsWhatChangedSinceTheSnapshot() throws Exception {
    Files.writeString(sandbox.workspace.resolve("kept.txt"), "a\nb\n");
    Files.writeString(sandbox.workspace.resolve("gone.txt"), "x\n");
    String snapshot =
        json(sandbox.send("POST", "/workspace/snapshot", (String) null)).get("snapshot").asText();

    Files.writeString(sandbox.workspace.resolve("kept.txt"), "a\nc\n");
    Files.delete(sandbox.workspace.resolve("gone.txt"));
    Files.writeString(sandbox.workspace.resolve("new.txt"), "1\n2\n3\n");
    JsonNode diff =
        json(sandbox.send("GET", "/workspace/diff?snapshot=" + snapshot, (String) null));

    assertThat(diff.get("changes")).hasSize(3);
    assertThat(diff.get("changes").get(0).toString())
        .isEqualTo("{\"path\":\"gone.txt\",\"change\":\"delete\",\"additions\":0,\"deletions\":1}");
    JsonNode created = diff.get("diffs").get(2);
    assertThat(created.get("path").asText()).isEqualTo("new.txt");
    assertThat(created.get("change").asText()).isEqualTo("create");
    assertThat(created.get("additions").asInt()).isEqualTo(3);
    assertThat(created.get("content").asText()).isEqualTo("1\n2\n3\n");
    JsonNode modified = diff.get("changes").get(1);
    assertThat(modified.get("change").asText()).isEqualTo("modify");
    assertThat(modified.get("additions").asInt()).isEqualTo(1);
    assertThat(modified.get("deletions").asInt()).isEqualTo(1);
  }

  @Test
  void diffNeedsAKnownSnapshot() throws Exception {
    assertError(sandbox.send("GET", "/workspace/diff", (String) null), 400, "snapshot");
    assertError(sandbox.send("GET", "/workspace/diff?snapshot=nope", (String) null), 404, "nope");
    assertThat(sandbox.send("GET", "/workspace/snapshot", (String) null).statusCode())
        .isEqualTo(405);
  }

  @Test
  void stdioMcpServerIsPipedLineByLine() throws Exception {
    // cat answers each message with itself: the pipe, not an MCP implementation, is under test.
    String spec =
        "{\"command\":\"sh\",\"args\":[\"-c\",\"echo ready-$GREETING; cat\"],"
            + "\"env\":{\"GREETING\":\"hi\"}}";
    assertThat(sandbox.send("PUT", "/mcp/echo", spec).statusCode()).isEqualTo(201);
    assertThat(sandbox.send("PUT", "/mcp/echo", spec).statusCode()).isEqualTo(200);
    assertError(sandbox.send("PUT", "/mcp/echo", "{\"command\":\"cat\"}"), 409, "another command");

    HttpResponse<Stream<String>> messages = sandbox.stream("GET", "/mcp/echo/messages", null);
    assertThat(messages.headers().firstValue("Content-Type")).contains("application/x-ndjson");
    Iterator<String> lines = messages.body().iterator();
    assertThat(lines.next()).isEqualTo("ready-hi");
    HttpResponse<String> posted =
        sandbox.send(
            "POST",
            "/mcp/echo/messages",
            "{\"jsonrpc\": \"2.0\",\n \"id\": 1, \"method\": \"ping\"}");
    assertThat(posted.statusCode()).isEqualTo(202);
    assertThat(lines.next()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");

    assertThat(json(sandbox.send("DELETE", "/mcp/echo", (String) null)).get("stopped").asBoolean())
        .isTrue();
    assertThat(lines.hasNext()).isFalse(); // the stream ends with the server
    assertThat(sandbox.send("POST", "/mcp/echo/messages", "{}").statusCode()).isEqualTo(404);
  }

  @Test
  void badMcpRequestsAreRefused() throws Exception {
    assertError(sandbox.send("PUT", "/mcp/x", "{\"args\":[]}"), 400, "command");
    assertError(sandbox.send("PUT", "/mcp/x", "{\"command\":\"cat\",\"args\":\"a\"}"), 400, "args");
    assertError(sandbox.send("PUT", "/mcp/a%20b", "{\"command\":\"cat\"}"), 400, "name");
    assertError(sandbox.send("GET", "/mcp/missing/messages", (String) null), 404, "missing");
    sandbox.send("PUT", "/mcp/c", "{\"command\":\"cat\"}");
    assertError(sandbox.send("POST", "/mcp/c/messages", "not json"), 400, "JSON-RPC");
  }
}
