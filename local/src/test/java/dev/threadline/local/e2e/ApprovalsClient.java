package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the tests of approvals do through one local mode: agents with a policy, threads streamed up
 * to their approval request, answers, and what the stream's frames say.
 */
final class ApprovalsClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final LocalModeFixture fixture;
  private final Supplier<KubernetesClient> kubernetes;

  /** Through a local mode of this JVM, whose Kubernetes API it reads too. */
  ApprovalsClient(LocalModeFixture fixture) {
    this(fixture, () -> fixture.local().client());
  }

  /** Through {@code api}, reading Runs through {@code kubernetes}. */
  ApprovalsClient(LocalModeFixture api, Supplier<KubernetesClient> kubernetes) {
    this.fixture = api;
    this.kubernetes = kubernetes;
  }

  /** An agent with that policy (null: none) and {@code more} fields (each after a comma). */
  String agent(String approvals, String more) {
    HttpResponse<String> response =
        fixture.post(
            ALICE_KEY,
            "/v1/agents",
            "{\"name\": \"careful\", \"model\": \"scripted-model\""
                + (approvals == null ? "" : ", \"approvals\": " + approvals)
                + more
                + "}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    return json(response.body()).at("/agent/id").asText();
  }

  SseFrames startThread(String agentId, String task) {
    return fixture.frames(
        fixture
            .request(ALICE_KEY, "/v1/threads")
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"agentId\": \"" + agentId + "\", \"task\": \"" + task + "\"}")));
  }

  /** The frames up to and with the first approval request. */
  static List<SseFrames.Frame> untilApproval(SseFrames stream) {
    List<SseFrames.Frame> frames = new ArrayList<>();
    while (true) {
      List<SseFrames.Frame> next = stream.next(1);
      assertThat(next).as("the stream ended without asking: %s", types(frames)).isNotEmpty();
      frames.add(next.getFirst());
      if (next.getFirst().type().equals("response.approval_requested")) {
        return frames;
      }
    }
  }

  HttpResponse<String> answer(String key, String threadId, String callId, String fields) {
    return fixture.post(
        key,
        "/v1/threads/" + threadId + "/approvals",
        "{\"callId\": \"" + callId + "\", " + fields + "}");
  }

  /** The thread's first Run. */
  Run run(String threadId) {
    String thread = ResourceIds.toName(threadId).orElseThrow();
    return kubernetes
        .get()
        .resources(Run.class)
        .inNamespace("alice")
        .withName(ThreadRuns.runName(thread, 1))
        .get();
  }

  static List<String> types(List<SseFrames.Frame> frames) {
    return frames.stream().map(SseFrames.Frame::type).toList();
  }

  static List<JsonNode> tools(List<SseFrames.Frame> frames) {
    return frames.stream()
        .map(SseFrames.Frame::json)
        .filter(json -> json.at("/item/type").asText().equals("tool_call"))
        .map(json -> json.path("item"))
        .toList();
  }

  static List<String> toolCommands(List<SseFrames.Frame> frames) {
    return tools(frames).stream()
        .map(tool -> tool.at("/tool/command").asText())
        .filter(command -> !command.isEmpty())
        .toList();
  }

  static List<String> toolOutputs(List<SseFrames.Frame> frames) {
    return tools(frames).stream().map(tool -> tool.at("/tool/output").asText()).toList();
  }

  static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
