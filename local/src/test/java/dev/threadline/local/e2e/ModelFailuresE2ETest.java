package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.operator.support.OpenAiStandIn;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Through the local mode, against an OpenAI-compatible stand-in that fails as providers do: a
 * stream the SDK cannot read, a stream that stops mid-way, a connection that never answers, a 500
 * and a 429. On the direct path and in the computer's worker, each ends the run {@code failed} with
 * the provider's error in words, after one call and within the model timeout (never a reconcile the
 * framework retries). A cancel ends a direct run whose model call is in flight; the scripted model
 * answers a huge message at once.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ModelFailuresE2ETest {
  private static final Duration MODEL_TIMEOUT = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final OpenAiStandIn model =
      new OpenAiStandIn(Duration.ofMillis(20), Duration.ofMillis(5));

  @RegisterExtension
  static final LocalModeFixture fixture =
      LocalModeFixture.perClass(operator -> operator.withModel(model.settings(MODEL_TIMEOUT)));

  /** The provider's client loads its classes on its first call: not within a test's bound. */
  @BeforeAll
  static void warmUp() {
    model.answerText("Warm", ".");
    assertThat(types(post("/v1/threads", messages("Hi there")))).contains("direct.response");
  }

  @BeforeEach
  void noRepliesLeft() {
    model.clearReplies(); // a run that failed before its call (a sandbox) leaves its reply
  }

  /** A failure the stand-in answers with, and words the run's error must hold. */
  record Failure(String name, Consumer<OpenAiStandIn> queue, String words, String code) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> failures() {
    return Stream.of(
            new Failure(
                "usage beside finish_reason",
                m -> m.answerStreamed(OpenAiStandIn.Stream.USAGE_IN_THE_FINISHING_CHUNK, "Hi"),
                "`choices` is required",
                "execution_failed"),
            new Failure(
                "a stream that stops mid-way",
                m -> m.answerStreamed(OpenAiStandIn.Stream.CUT_OFF, "The capital", " is"),
                "the stream ended before the answer was complete",
                "execution_failed"),
            new Failure(
                "a hung connection",
                OpenAiStandIn::answerNothing,
                "no answer within " + MODEL_TIMEOUT.toMillis() + " ms",
                "execution_failed"),
            new Failure(
                "500",
                m -> m.answerError(500, "the stand-in is down"),
                "the stand-in is down",
                "execution_failed"),
            new Failure(
                "429",
                m -> m.answerError(429, "slow down, please"),
                "slow down, please",
                "rate_limited"))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void aProviderFailureOnTheDirectPathEndsTheRunFailedInTheProvidersWords(Failure failure) {
    int callsBefore = model.requests().size();
    failure.queue().accept(model);

    long start = System.nanoTime();
    List<SseFrames.Frame> frames = post("/v1/threads", messages("Hi there"));

    assertFailedWith(frames, failure);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("within the model timeout (plus the service's own work)")
        .isLessThan(MODEL_TIMEOUT.plusSeconds(10));
    assertThat(model.requests().size() - callsBefore).as("model calls").isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void aProviderFailureInTheWorkerEndsTheComputerRunFailedInTheProvidersWords(Failure failure) {
    int callsBefore = model.requests().size();
    model.answerToolCall(
        "hand_off_to_computer", "{\"task\": \"List the files\", \"reason\": \"needs a shell\"}");
    failure.queue().accept(model);

    List<SseFrames.Frame> frames = post("/v1/threads", messages("List the files, please"));

    assertThat(types(frames)).contains("computer.starting");
    assertFailedWith(frames, failure);
    assertThat(model.requests().size() - callsBefore)
        .as("the routing call and the worker's one call")
        .isEqualTo(2);
  }

  @Test
  void aCancelEndsADirectRunWhileItsModelCallIsInFlight() {
    int callsBefore = model.requests().size();
    model.answerNothing();
    try (SseFrames stream = fixture.frames(postRequest("/v1/threads", messages("Hi there")))) {
      String threadId = stream.next(1).getFirst().json().path("thread").path("id").asText();
      await().atMost(Duration.ofSeconds(20)).until(() -> model.requests().size() > callsBefore);

      HttpResponse<String> cancel =
          fixture.post(LocalModeFixture.ALICE_KEY, "/v1/threads/" + threadId + "/cancel", "{}");
      assertThat(cancel.statusCode()).isEqualTo(200);
      List<SseFrames.Frame> rest = stream.rest();

      // Not the model timeout's execution_failed: the cancel ended the run, the call was abandoned.
      SseFrames.Frame failed = only(rest, "response.failed");
      assertThat(failed.json().path("response").path("error").path("code").asText())
          .isEqualTo("cancelled");
      assertThat(thread(threadId).path("thread").path("status").asText()).isEqualTo("cancelled");
    }
  }

  @Test
  void theScriptedModelAnswersAHugeMessageAtOnce() {
    HttpResponse<String> agent =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/v1/agents",
            "{\"name\": \"offline\", \"provider\": \"scripted\", \"model\": \"scripted\"}");
    assertThat(agent.statusCode()).as(agent.body()).isEqualTo(201);
    String agentId = json(agent.body()).path("agent").path("id").asText();
    // Took 34 s of CPU with 40,000 spaces, minutes with 199,000 (work in the square of the length).
    String message = "what is the time" + " ".repeat(199_000) + "x";

    List<SseFrames.Frame> frames =
        post("/v1/threads", "{\"agentId\": \"" + agentId + "\", " + messages(message).substring(1));

    assertThat(types(frames))
        .containsExactly(
            "thread.created", "direct.response", "response.completed", "stream.completed");
    assertThat(only(frames, "direct.response").json().path("message").asText()).contains("UTC");
  }

  private static void assertFailedWith(List<SseFrames.Frame> frames, Failure failure) {
    assertThat(types(frames).getLast()).isEqualTo("stream.completed");
    JsonNode error = only(frames, "response.failed").json().path("response").path("error");
    assertThat(error.path("message").asText()).contains(failure.words());
    assertThat(error.path("code").asText()).isEqualTo(failure.code());
  }

  private static SseFrames.Frame only(List<SseFrames.Frame> frames, String type) {
    List<SseFrames.Frame> found = frames.stream().filter(f -> f.type().equals(type)).toList();
    assertThat(found).as(type + " in " + types(frames)).hasSize(1);
    return found.getFirst();
  }

  private static List<String> types(List<SseFrames.Frame> frames) {
    return frames.stream().map(SseFrames.Frame::type).toList();
  }

  private static JsonNode thread(String threadId) {
    return json(fixture.get(LocalModeFixture.ALICE_KEY, "/v1/threads/" + threadId).body());
  }

  private static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String messages(String message) {
    return "{\"messages\": [{\"role\": \"user\", \"content\": \"" + message + "\"}]}";
  }

  private static List<SseFrames.Frame> post(String path, String json) {
    try (SseFrames stream = fixture.frames(postRequest(path, json))) {
      return stream.rest();
    }
  }

  private static HttpRequest.Builder postRequest(String path, String json) {
    return fixture
        .request(LocalModeFixture.ALICE_KEY, path)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
  }
}
