package dev.threadline.models.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.ProviderFailures;
import dev.threadline.models.Redaction;
import dev.threadline.models.TextDeltas;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A model behind the OpenAI Chat Completions API: OpenAI itself or any compatible server (vLLM,
 * Ollama, LiteLLM...) through {@link ModelSettings#baseUrl()}. The SDK never retries: the caller
 * decides what a rate limit or an outage means for its run.
 */
public final class OpenAiModelProvider implements ModelProvider {

  public static final String NAME = ModelSettings.OPENAI;

  private static final Logger log = LoggerFactory.getLogger(OpenAiModelProvider.class);

  private final OpenAIClient client;
  private final String apiKey;
  private final Duration timeout;

  /**
   * @throws IllegalArgumentException when the settings have no API key
   */
  public OpenAiModelProvider(ModelSettings settings) {
    this.apiKey = settings.requireApiKey();
    this.timeout = settings.timeout();
    OpenAIOkHttpClient.Builder builder =
        OpenAIOkHttpClient.builder()
            .apiKey(settings.apiKey())
            .maxRetries(0)
            .timeout(settings.timeout());
    if (settings.baseUrl() != null) {
      builder.baseUrl(settings.baseUrl());
    }
    this.client = builder.build();
    log.info(
        "OpenAI-compatible model provider at {} (timeout {})",
        Objects.requireNonNullElse(Redaction.url(settings.baseUrl()), "the OpenAI API"),
        settings.timeout());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ModelReply complete(ModelRequest request) {
    return call(
        request,
        () ->
            OpenAiReplies.toReply(
                client.chat().completions().create(OpenAiRequests.toParams(request))));
  }

  /** Streams through the SDK; the accumulated chunks make the same reply {@link #complete} does. */
  @Override
  public ModelReply stream(ModelRequest request, TextDeltas deltas) {
    return call(
        request,
        () -> {
          ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
          try (StreamResponse<ChatCompletionChunk> chunks =
              client
                  .chat()
                  .completions()
                  .createStreaming(OpenAiRequests.toStreamingParams(request))) {
            chunks.stream()
                .forEach(chunk -> {
                  accumulate(accumulator, chunk);
                  chunk.choices().stream()
                      .findFirst()
                      .flatMap(choice -> choice.delta().content())
                      .filter(text -> !text.isEmpty())
                      .ifPresent(deltas::onText);
                });
          }
          return OpenAiReplies.toReply(completion(accumulator));
        });
  }

  private void accumulate(ChatCompletionAccumulator accumulator, ChatCompletionChunk chunk) {
    try {
      accumulator.accumulate(chunk);
    } catch (IllegalStateException | IllegalArgumentException refused) {
      throw ProviderFailures.unreadableStream(NAME, refused, apiKey);
    }
  }

  /** The accumulated answer; the accumulator refuses when the final chunk never came. */
  private static ChatCompletion completion(ChatCompletionAccumulator accumulator) {
    try {
      return accumulator.chatCompletion();
    } catch (IllegalStateException unfinished) {
      throw ProviderFailures.streamEnded(NAME);
    }
  }

  private ModelReply call(ModelRequest request, Supplier<ModelReply> call) {
    try {
      ModelReply reply = call.get();
      log.debug(
          "{} answered: {} tool call(s), stop {}, {} tokens",
          request.model(),
          reply.toolCalls().size(),
          reply.stopReason(),
          reply.usage().totalTokens());
      return reply;
    } catch (OpenAIServiceException e) {
      throw logged(ProviderFailures.httpError(NAME, e.statusCode(), e.getMessage(), apiKey));
    } catch (OpenAIInvalidDataException e) {
      throw logged(ProviderFailures.invalidReply(NAME, e.getMessage(), apiKey));
    } catch (OpenAIIoException e) {
      throw logged(ProviderFailures.transport(NAME, e, timeout, apiKey));
    } catch (OpenAIException e) {
      // Anything else the SDK throws happened before or instead of an HTTP answer.
      throw logged(ProviderFailures.transport(NAME, e, timeout, apiKey));
    }
  }

  private static ModelException logged(ModelException failure) {
    log.debug("OpenAI call failed: {}", failure.getMessage());
    return failure;
  }

  @Override
  public void close() {
    client.close();
  }
}
