package dev.threadline.benchmarks;

import dev.threadline.local.LocalMode;
import dev.threadline.local.LocalSettings;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.support.OpenAiStandIn;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The direct path against a model that answers like a hosted one: a stand-in OpenAI-compatible
 * endpoint that streams a 72-token answer, 300 ms to the first token and 20 ms per token after it.
 * Measures, in the same run, POST → {@code direct.response} without {@code streamTokens}, and with
 * it POST → first text delta and POST → {@code direct.response}; counts the model calls per direct
 * message.
 */
public final class DirectModelBenchmark {
  private static final String KEY = "tl_benchmark_key_000000000000";
  private static final int WARMUP = 3;
  private static final int ANSWER_TOKENS = 72;
  private static final Duration FIRST_TOKEN = Duration.ofMillis(300);
  private static final Duration PER_TOKEN = Duration.ofMillis(20);
  private static final String TEXT_DELTA = "response.output_text.delta";

  private DirectModelBenchmark() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    Path report = Path.of(args.length > 1 ? args[1] : "benchmarks/DIRECT-MODEL-REPORT.md");
    LocalSettings settings =
        LocalSettings.fromEnvironment(Map.of())
            .withPorts(0, 0)
            .withDataDir(Files.createTempDirectory("threadline-bench-model"))
            .withApiKeys(Map.of(KEY, "bench"));
    try (OpenAiStandIn model = new OpenAiStandIn(FIRST_TOKEN, PER_TOKEN);
        LocalMode local =
            LocalMode.start(
                settings,
                withPrice(System.getenv()),
                operator ->
                    operator.withModel(
                        new ModelSettings(
                            ModelSettings.OPENAI,
                            "stand-in",
                            model.baseUrl(),
                            "bench-key",
                            Duration.ofSeconds(30))))) {
      HttpClient http = HttpClient.newHttpClient();
      String agentId =
          BenchAgents.create(
              http,
              local.apiUrl(),
              KEY,
              "{\"name\": \"bench-model\", \"provider\": \"openai\", \"model\": \"stand-in\"}");
      String question =
          "{\"agentId\":\""
              + agentId
              + "\",\"messages\":[{\"role\":\"user\",\"content\":\"What is a monad?\"}]";
      String plain = question + "}";
      String streamed = question + ",\"streamTokens\":true}";
      List<Double> directResponse = new ArrayList<>();
      List<Double> firstText = new ArrayList<>();
      List<Double> streamedResponse = new ArrayList<>();
      for (int i = 0; i < WARMUP + iterations; i++) {
        model.answerText(answer());
        SseTimings timings = SseTimings.post(http, local.apiUrl() + "/v1/threads", KEY, plain);
        model.answerText(answer());
        SseTimings tokens = SseTimings.post(http, local.apiUrl() + "/v1/threads", KEY, streamed);
        if (i >= WARMUP) {
          directResponse.add(at(timings, "direct.response"));
          firstText.add(at(tokens, TEXT_DELTA));
          streamedResponse.add(at(tokens, "direct.response"));
        }
      }
      Percentiles direct = Percentiles.of(directResponse);
      Percentiles first = Percentiles.of(firstText);
      Percentiles whole = Percentiles.of(streamedResponse);
      double callsPerMessage = (double) model.requests().size() / (2 * (WARMUP + iterations));
      System.err.println("POST -> direct.response: " + direct);
      System.err.println("POST (streamTokens) -> first text: " + first);
      System.err.println("POST (streamTokens) -> direct.response: " + whole);
      System.err.println("model calls per direct message: " + callsPerMessage);
      write(report, iterations, direct, first, whole, callsPerMessage);
      System.err.println("report written to " + report.toAbsolutePath());
    }
  }

  /** The stand-in's token price: an agent may only name a model that can be billed. */
  private static Map<String, String> withPrice(Map<String, String> environment) {
    Map<String, String> priced = new HashMap<>(environment);
    priced.putIfAbsent("THREADLINE_MODEL_PRICES", "stand-in=1/2/0.5");
    return priced;
  }

  private static double at(SseTimings timings, String type) {
    Double at = timings.firstEventMillis.get(type);
    if (at == null) {
      throw new IllegalStateException(
          "no " + type + "; the stream had " + timings.firstEventMillis.keySet());
    }
    return at;
  }

  private static String[] answer() {
    List<String> tokens = new ArrayList<>(Collections.nCopies(ANSWER_TOKENS, " word"));
    tokens.set(0, "Answer");
    return tokens.toArray(String[]::new);
  }

  private static void write(
      Path report,
      int iterations,
      Percentiles direct,
      Percentiles firstText,
      Percentiles streamedResponse,
      double callsPerMessage)
      throws IOException {
    String text =
        String.join(
            "\n",
            "# Direct path against a streaming model",
            "",
            "Local mode; the operator's model is a stand-in OpenAI-compatible endpoint on loopback"
                + " that streams a "
                + ANSWER_TOKENS
                + "-token answer, "
                + FIRST_TOKEN.toMillis()
                + " ms to the first token and "
                + PER_TOKEN.toMillis()
                + " ms per token after it (so "
                + (FIRST_TOKEN.toMillis() + (ANSWER_TOKENS - 1) * PER_TOKEN.toMillis())
                + " ms per answer). One client, "
                + iterations
                + " measured pairs of messages (one without, one with `streamTokens`) after "
                + WARMUP
                + " warm-up pairs. "
                + Percentiles.provenance("DirectModelBenchmark"),
            "",
            Percentiles.TABLE_HEAD,
            Percentiles.row("POST /v1/threads → `direct.response`", direct),
            Percentiles.row(
                "POST /v1/threads `streamTokens` → first `response.output_text.delta`", firstText),
            Percentiles.row(
                "POST /v1/threads `streamTokens` → `direct.response`", streamedResponse),
            "",
            String.format(
                "Goal for the first text: at most the model's first-token time + 100 ms = %d ms.",
                FIRST_TOKEN.toMillis() + 100),
            "",
            String.format("Model calls per direct message: %.2f.", callsPerMessage),
            "");
    Files.writeString(report, text);
  }
}
