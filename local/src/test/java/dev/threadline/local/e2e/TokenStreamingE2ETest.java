package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.operator.support.OpenAiStandIn;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code streamTokens} through the local mode against an OpenAI-compatible stand-in that writes
 * with delays: text deltas travel from the operator's live channel (over loopback) to the stream,
 * before the durable events that carry the whole; without the flag the contract's sequence is
 * untouched; a resumed stream gets the durable events once and is told deltas are not replayed.
 */
class TokenStreamingE2ETest {
  private static final String TEXT_DELTA = "response.output_text.delta";
  private static final String OUTPUT_DELTA = "response.output_item.delta";
  private static OpenAiStandIn model;
  private static LocalModeFixture fixture;

  @BeforeAll
  static void start() {
    model = new OpenAiStandIn(Duration.ofMillis(200), Duration.ofMillis(15));
    fixture =
        LocalModeFixture.start(
            operator -> operator.withModel(model.settings(Duration.ofSeconds(20))));
  }

  @AfterAll
  static void stop() {
    fixture.close();
    model.close();
  }

  @Test
  void directAnswerStreamsItsTextBeforeDirectResponseFromOneModelCall() {
    int callsBefore = model.requests().size();
    model.answerText("Hello", ", I am", " a stand", "-in model", ".");
    List<SseFrames.Frame> frames = post("/v1/threads", body("Hi there", true));

    List<String> types = frames.stream().map(SseFrames.Frame::type).toList();
    int answer = types.indexOf("direct.response");
    assertThat(types.getFirst()).isEqualTo("thread.created");
    assertThat(types.subList(answer, types.size()))
        .containsExactly("direct.response", "response.completed", "stream.completed");
    List<SseFrames.Frame> deltas = frames.subList(1, answer);
    assertThat(deltas).hasSizeGreaterThan(1).allMatch(frame -> frame.type().equals(TEXT_DELTA));
    assertThat(deltas).allMatch(frame -> frame.id() == null, "deltas carry no SSE id");
    assertThat(join(deltas))
        .isEqualTo(frames.get(answer).json().path("message").asText())
        .isEqualTo("Hello, I am a stand-in model.");
    assertThat(model.requests().size() - callsBefore).as("model calls").isEqualTo(1);
  }

  @Test
  void withoutStreamTokensTheDirectSequenceIsTheContractsExactly() {
    model.answerText("Plain", " answer.");
    List<SseFrames.Frame> frames = post("/v1/threads", body("Hi there", false));
    assertThat(frames)
        .extracting(SseFrames.Frame::type)
        .containsExactly(
            "thread.created", "direct.response", "response.completed", "stream.completed");
  }

  @Test
  void followUpDeltasCarryTheIdOfTheMessageItemTheyPrecede() {
    model.answerText("First.");
    String threadId =
        post("/v1/threads", body("Hi", false)).getFirst().json().path("thread").path("id").asText();
    model.answerText("Second", " answer.");
    List<SseFrames.Frame> frames =
        post(
            "/v1/threads/" + threadId + "/messages",
            "{\"content\": \"And again?\", \"streamTokens\": true}");

    List<String> types = frames.stream().map(SseFrames.Frame::type).toList();
    int completedItem = types.indexOf("response.item.completed");
    List<SseFrames.Frame> deltas =
        frames.stream().filter(frame -> frame.type().equals(TEXT_DELTA)).toList();
    assertThat(deltas).isNotEmpty();
    assertThat(types.lastIndexOf(TEXT_DELTA)).isLessThan(completedItem);
    String itemId = frames.get(completedItem).json().path("item").path("id").asText();
    assertThat(deltas).allMatch(frame -> frame.json().path("item_id").asText().equals(itemId));
    assertThat(join(deltas)).isEqualTo("Second answer.");
  }

  @Test
  void aResumedStreamGetsEveryDurableEventOnceAndSaysDeltasWereNotReplayed() {
    model.answerText("One", " two", " three", " four", " five", " six.");
    List<SseFrames.Frame> received = new ArrayList<>();
    try (SseFrames stream = fixture.frames(postRequest("/v1/threads", body("Count", true)))) {
      received.addAll(stream.next(2)); // thread.created and the first delta, then the client drops
    }
    assertThat(received.get(1).type()).isEqualTo(TEXT_DELTA);
    String threadId = received.getFirst().json().path("thread").path("id").asText();
    String path = "/v1/threads/" + threadId + "/stream";

    List<SseFrames.Frame> resumed;
    List<String> comments;
    try (SseFrames stream =
        fixture.frames(
            fixture
                .request(LocalModeFixture.ALICE_KEY, path)
                .header("Last-Event-ID", received.getFirst().id())
                .GET())) {
      resumed = stream.rest();
      comments = stream.comments();
    }
    List<SseFrames.Frame> whole;
    try (SseFrames stream =
        fixture.frames(fixture.request(LocalModeFixture.ALICE_KEY, path).GET())) {
      whole = stream.rest();
    }

    assertThat(resumed).extracting(SseFrames.Frame::type).doesNotContain(TEXT_DELTA);
    assertThat(resumed)
        .extracting(SseFrames.Frame::type)
        .containsExactly("direct.response", "response.completed", "stream.completed");
    assertThat(comments).anyMatch(comment -> comment.contains("not replayed"));
    // The same durable events, with the same ids, as a replay from the start (which, the session
    // being still kept, also has the deltas).
    assertThat(SseFrames.describe(resumed))
        .isEqualTo(SseFrames.describe(whole.stream().filter(frame -> frame.id() != null).toList()));
  }

  @Test
  void computerPathStreamsCommandOutputAndTextBeforeTheirItemsAndGetsTheHandedOverTask() {
    int callsBefore = model.requests().size();
    model.answerToolCall(
        "hand_off_to_computer",
        "{\"task\": \"Print two lines with a pause between them\", \"reason\": \"needs a shell\"}");
    model.answerToolCall("run_command", "{\"command\": \"echo first; sleep 1; echo second\"}");
    model.answerText("Printed", " two", " lines.");
    List<SseFrames.Frame> frames = post("/v1/threads", body("Print two lines, slowly", true));

    List<String> types = frames.stream().map(SseFrames.Frame::type).toList();
    assertThat(types).contains("computer.starting", "response.started", "response.completed");
    assertThat(types.getLast()).isEqualTo("stream.completed");
    SseFrames.Frame tool = item(frames, "tool_call");
    List<SseFrames.Frame> output = deltasOf(frames, OUTPUT_DELTA, tool);
    assertThat(join(output)).contains("first").contains("second");
    assertThat(frames.indexOf(output.getLast())).isLessThan(frames.indexOf(tool));
    SseFrames.Frame message = item(frames, "message");
    List<SseFrames.Frame> text = deltasOf(frames, TEXT_DELTA, message);
    assertThat(join(text)).isEqualTo("Printed two lines.");
    assertThat(frames.indexOf(text.getLast())).isLessThan(frames.indexOf(message));
    // The worker's first call (after the router's) carries the task the router's model handed over.
    assertThat(model.requests().get(callsBefore + 1).toString())
        .contains("Print two lines with a pause between them");
  }

  @Test
  void streamTokensThatIsNotABooleanIsA400NamingTheField() {
    HttpResponse<String> response =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/v1/threads",
            "{\"task\": \"Hi\", \"streamTokens\": \"yes\"}");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("streamTokens");
  }

  private static SseFrames.Frame item(List<SseFrames.Frame> frames, String type) {
    return frames.stream()
        .filter(frame -> frame.type().equals("response.item.completed"))
        .filter(frame -> frame.json().path("item").path("type").asText().equals(type))
        .reduce((first, second) -> second)
        .orElseThrow(() -> new AssertionError("no " + type + " item in " + frames));
  }

  private static List<SseFrames.Frame> deltasOf(
      List<SseFrames.Frame> frames, String type, SseFrames.Frame item) {
    String itemId = item.json().path("item").path("id").asText();
    List<SseFrames.Frame> deltas =
        frames.stream()
            .filter(frame -> frame.type().equals(type))
            .filter(frame -> frame.json().path("item_id").asText().equals(itemId))
            .toList();
    assertThat(deltas).as(type + " of " + itemId).isNotEmpty();
    return deltas;
  }

  private static String body(String message, boolean streamTokens) {
    return "{\"messages\": [{\"role\": \"user\", \"content\": \""
        + message
        + "\"}]"
        + (streamTokens ? ", \"streamTokens\": true" : "")
        + "}";
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

  private static String join(List<SseFrames.Frame> deltas) {
    return String.join("", deltas.stream().map(f -> f.json().path("delta").asText()).toList());
  }
}
