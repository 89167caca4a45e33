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
import java.util.List;
import java.util.Map;

/**
 * The direct path against a model that answers like a hosted one: a stand-in OpenAI-compatible
 * endpoint that streams a 72-token answer, 300 ms to the first token and 20 ms per token after it.
 * Measures POST → {@code direct.response} and counts the model calls per direct message.
 */
public final class DirectModelBenchmark {
  private static final String KEY = "tl_benchmark_key_000000000000";
  private static final int WARMUP = 3;
  private static final int ANSWER_TOKENS = 72;
  private static final Duration FIRST_TOKEN = Duration.ofMillis(300);
  private static final Duration PER_TOKEN = Duration.ofMillis(20);

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
              + "\",\"messages\":[{\"role\":\"user\",\"content\":\"What is a monad?\"}]}";
      List<Double> directResponse = new ArrayList<>();
      for (int i = 0; i < WARMUP + iterations; i++) {
        model.answerText(answer());
        SseTimings timings = SseTimings.post(http, local.apiUrl() + "/v1/threads", KEY, question);
        Double at = timings.firstEventMillis.get("direct.response");
        if (at == null) {
          throw new IllegalStateException(
              "no direct.response; the stream had " + timings.firstEventMillis.keySet());
        }
        if (i >= WARMUP) {
          directResponse.add(at);
        }
      }
      Percentiles direct = Percentiles.of(directResponse);
      double callsPerMessage = (double) model.requests().size() / (WARMUP + iterations);
      System.err.println("POST -> direct.response: " + direct);
      System.err.println("model calls per direct message: " + callsPerMessage);
      write(report, iterations, direct, callsPerMessage);
      System.err.println("report written to " + report.toAbsolutePath());
    }
  }

  private static String[] answer() {
    List<String> tokens = new ArrayList<>(Collections.nCopies(ANSWER_TOKENS, " word"));
    tokens.set(0, "Answer");
    return tokens.toArray(String[]::new);
  }

  private static void write(Path report, int iterations, Percentiles direct, double callsPerMessage)
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
                + " measured messages after "
                + WARMUP
                + " warm-up ones. "
                + Percentiles.provenance("DirectModelBenchmark"),
            "",
            Percentiles.TABLE_HEAD,
            Percentiles.row("POST /v1/threads → `direct.response`", direct),
            "",
            String.format("Model calls per direct message: %.2f.", callsPerMessage),
            "",
            "Text deltas (`streamTokens`) are not served yet, so there is no POST → first text"
                + " row.",
            "");
    Files.writeString(report, text);
  }
}
