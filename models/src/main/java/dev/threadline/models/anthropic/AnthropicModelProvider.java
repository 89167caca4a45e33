package dev.threadline.models.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicException;
import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.TextDelta;
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
 * A Claude model behind the Anthropic Messages API (or a compatible gateway through {@link
 * ModelSettings#baseUrl()}, given without {@code /v1}). The SDK never retries: the caller decides
 * what a rate limit or an outage means for its run.
 */
public final class AnthropicModelProvider implements ModelProvider {

  public static final String NAME = ModelSettings.ANTHROPIC;
  static final String API_KEY_HEADER = "x-api-key";

  private static final Logger log = LoggerFactory.getLogger(AnthropicModelProvider.class);

  private final AnthropicClient client;
  private final String apiKey;
  private final Duration timeout;

  /**
   * @throws IllegalArgumentException when the settings have no API key
   */
  public AnthropicModelProvider(ModelSettings settings) {
    this.apiKey = settings.requireApiKey();
    this.timeout = settings.timeout();
    AnthropicOkHttpClient.Builder builder =
        AnthropicOkHttpClient.builder()
            .apiKey(settings.apiKey())
            // The Messages API documents the key in x-api-key, and gateways (LiteLLM, proxies)
            // expect it
            // there. anthropic-java 3.x sends "Authorization: Bearer" unless the request already
            // carries
            // x-api-key, so name the header explicitly.
            .putHeader(API_KEY_HEADER, settings.apiKey())
            .maxRetries(0)
            .timeout(settings.timeout());
    if (settings.baseUrl() != null) {
      builder.baseUrl(settings.baseUrl());
    }
    this.client = builder.build();
    log.info(
        "Anthropic model provider at {} (timeout {})",
        Objects.requireNonNullElse(Redaction.url(settings.baseUrl()), "the Anthropic API"),
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
            AnthropicReplies.toReply(
                client.messages().create(AnthropicRequests.toParams(request))));
  }

  /** Streams through the SDK; the accumulated events make the same reply {@link #complete} does. */
  @Override
  public ModelReply stream(ModelRequest request, TextDeltas deltas) {
    return call(
        request,
        () -> {
          MessageAccumulator accumulator = MessageAccumulator.create();
          try (StreamResponse<RawMessageStreamEvent> events =
              client.messages().createStreaming(AnthropicRequests.toParams(request))) {
            events.stream()
                .forEach(event -> {
                  accumulate(accumulator, event);
                  event
                      .contentBlockDelta()
                      .flatMap(block -> block.delta().text())
                      .map(TextDelta::text)
                      .filter(text -> !text.isEmpty())
                      .ifPresent(deltas::onText);
                });
          }
          return AnthropicReplies.toReply(message(accumulator));
        });
  }

  private void accumulate(MessageAccumulator accumulator, RawMessageStreamEvent event) {
    try {
      accumulator.accumulate(event);
    } catch (IllegalStateException | IllegalArgumentException refused) {
      throw ProviderFailures.unreadableStream(NAME, refused, apiKey);
    }
  }

  /** The accumulated message; the accumulator refuses when {@code message_stop} never came. */
  private static Message message(MessageAccumulator accumulator) {
    try {
      return accumulator.message();
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
    } catch (AnthropicServiceException e) {
      throw logged(
          ProviderFailures.httpError(
              NAME, e.statusCode(), e.apiMessage().orElseGet(e::getMessage), apiKey));
    } catch (AnthropicInvalidDataException e) {
      throw logged(ProviderFailures.invalidReply(NAME, e.getMessage(), apiKey));
    } catch (AnthropicIoException e) {
      throw logged(ProviderFailures.transport(NAME, e, timeout, apiKey));
    } catch (AnthropicException e) {
      // Anything else the SDK throws happened before or instead of an HTTP answer.
      throw logged(ProviderFailures.transport(NAME, e, timeout, apiKey));
    }
  }

  private static ModelException logged(ModelException failure) {
    log.debug("Anthropic call failed: {}", failure.getMessage());
    return failure;
  }

  @Override
  public void close() {
    client.close();
  }
}
