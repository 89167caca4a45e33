package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An A2A client we did not write, {@code @a2a-js/sdk} from npm (installed from {@code
 * src/test/node}'s lock file), against the local mode: an agent's card, a direct answer, a
 * follow-up streamed in the same context, a resubscription, a computer run of the scripted model
 * streamed to completion, a cancelled run, and another user's key seeing none of it.
 */
class A2aClientNodeE2ETest {
  private static final Path SCRIPTS = Path.of("src", "test", "node").toAbsolutePath();

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void theA2aJavaScriptSdkSendsStreamsCancelsAndSeesOnlyItsOwnTasks() throws Exception {
    Assumptions.assumeTrue(
        Files.isDirectory(SCRIPTS.resolve("node_modules/@a2a-js/sdk")),
        "@a2a-js/sdk is not installed (run .ci/setup)");
    HttpResponse<String> agent =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/v1/agents",
            "{\"name\": \"Greeter\", \"provider\": \"scripted\", \"model\": \"scripted-1\","
                + " \"instructions\": \"Greet people and answer briefly.\"}");
    assertThat(agent.statusCode()).as(agent.body()).isEqualTo(201);
    String agentId = new ObjectMapper().readTree(agent.body()).at("/agent/id").asText();

    ProcessBuilder node =
        new ProcessBuilder(
                "node",
                "a2a-client.mjs",
                fixture.local().apiUrl(),
                LocalModeFixture.ALICE_KEY,
                LocalModeFixture.BOB_KEY,
                agentId)
            .directory(SCRIPTS.toFile());
    File errors = Files.createTempFile("a2a-client", ".err").toFile();
    node.redirectError(errors);
    Process process = node.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out + Files.readString(errors.toPath())).isZero();
    JsonNode seen = new ObjectMapper().readTree(out.strip());

    JsonNode card = seen.path("card");
    assertThat(card.path("name").asText()).isEqualTo("Greeter");
    assertThat(card.path("description").asText()).isEqualTo("Greet people and answer briefly.");
    assertThat(card.path("skills").toString()).isEqualTo("[\"Greeter\"]");
    assertThat(card.path("streaming").asBoolean()).isTrue();
    assertThat(card.path("schemes").toString()).isEqualTo("[\"bearer\"]");
    assertThat(card.path("interfaces").get(0).asText())
        .isEqualTo("JSONRPC 0.3.0 " + fixture.local().apiUrl() + "/a2a/agents/" + agentId);

    JsonNode direct = seen.path("direct");
    assertThat(direct.path("state").asText()).isEqualTo("completed");
    assertThat(direct.path("answer").asText()).isNotBlank();
    assertThat(direct.path("contextId").asText()).startsWith("thread_");
    assertThat(seen.at("/got/state").asText()).isEqualTo("completed");
    assertThat(seen.at("/got/history/0").asText()).isEqualTo("Hello there");

    JsonNode followUp = seen.path("followUp");
    assertThat(followUp.path("contextId").asText()).isEqualTo(direct.path("contextId").asText());
    assertThat(followUp.path("kinds").get(0).asText()).isEqualTo("task");
    assertThat(followUp.path("states").get(0).asText()).isEqualTo("submitted");
    assertThat(last(followUp.path("states"))).isEqualTo("completed");
    assertThat(followUp.path("answer").asText()).isNotBlank();
    // The thread holds both exchanges: the A2A context is the thread.
    HttpResponse<String> thread =
        fixture.get(LocalModeFixture.ALICE_KEY, "/v1/threads/" + direct.path("contextId").asText());
    JsonNode threadJson = new ObjectMapper().readTree(thread.body()).path("thread");
    assertThat(threadJson.path("messageCount").asLong()).isEqualTo(4);
    assertThat(threadJson.path("agentId").asText()).isEqualTo(agentId);

    assertThat(seen.at("/resubscribed/kinds").toString()).isEqualTo("[\"task\"]");
    assertThat(seen.at("/resubscribed/states").toString()).isEqualTo("[\"completed\"]");

    assertThat(seen.at("/serverCard/name").asText()).isEqualTo("Threadline");
    JsonNode computer = seen.path("computer");
    assertThat(last(computer.path("states"))).as(computer.toString()).isEqualTo("completed");
    assertThat(computer.path("states").toString()).contains("\"working\"");
    assertThat(computer.path("steps").toString()).contains("$ echo a2a > a2a.txt");
    assertThat(computer.path("steps").toString()).contains("a2a\\n");
    assertThat(computer.path("kinds").toString()).contains("artifactUpdate");

    JsonNode cancelled = seen.path("cancelled");
    assertThat(seen.path("cancelAnswer").asText()).isEqualTo("canceled");
    assertThat(last(cancelled.path("states"))).as(cancelled.toString()).isEqualTo("canceled");

    assertThat(seen.at("/otherCard/failed").asBoolean()).isTrue();
    assertThat(seen.at("/otherCard/message").asText()).contains("404");
    assertThat(seen.at("/otherTask/name").asText()).endsWith("TaskNotFoundError");
    assertThat(seen.at("/otherTask/code").asInt()).isEqualTo(-32001);
    assertThat(seen.at("/otherCancel/name").asText()).endsWith("TaskNotFoundError");
    assertThat(seen.at("/otherCancel/code").asInt()).isEqualTo(-32001);
    assertThat(seen.at("/otherContext/failed").asBoolean()).isTrue();
    assertThat(seen.at("/otherContext/code").asInt()).isEqualTo(-32602);
    assertThat(seen.at("/otherContext/message").asText()).contains("no context");
  }

  private static String last(JsonNode array) {
    return array.get(array.size() - 1).asText();
  }
}
