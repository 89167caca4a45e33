package dev.threadline.models.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.errors.AnthropicException;
import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicServiceException;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.Redaction;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Claude model behind the Anthropic Messages API (or a compatible gateway through
 * {@link ModelSettings#baseUrl()}, given without {@code /v1}). The SDK never retries: the caller
 * decides what a rate limit or an outage means for its run.
 */
public final class AnthropicModelProvider implements ModelProvider {

  public static final String NAME = ModelSettings.ANTHROPIC;

  private static final Logger log = LoggerFactory.getLogger(AnthropicModelProvider.class);

  private final AnthropicClient client;
  private final String apiKey;

  /**
   * @throws IllegalArgumentException when the settings have no API key
   */
  public AnthropicModelProvider(ModelSettings settings) {
    if (!settings.hasApiKey()) {
      throw new IllegalArgumentException("the anthropic model provider needs an API key: set "
          + ModelSettings.ENV_API_KEY + " (ModelSettings.apiKey)");
    }
    this.apiKey = settings.apiKey();
    AnthropicOkHttpClient.Builder builder = AnthropicOkHttpClient.builder()
        .apiKey(settings.apiKey())
        .maxRetries(0)
        .timeout(settings.timeout());
    if (settings.baseUrl() != null) {
      builder.baseUrl(settings.baseUrl());
    }
    this.client = builder.build();
    log.info("Anthropic model provider at {} (timeout {})",
        Objects.requireNonNullElse(settings.baseUrl(), "the Anthropic API"), settings.timeout());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ModelReply complete(ModelRequest request) {
    try {
      ModelReply reply = AnthropicReplies.toReply(client.messages().create(AnthropicRequests.toParams(request)));
      log.debug("{} answered: {} tool call(s), stop {}, {} tokens",
          request.model(), reply.toolCalls().size(), reply.stopReason(), reply.usage().totalTokens());
      return reply;
    } catch (AnthropicServiceException e) {
      String message = e.apiMessage().orElseGet(e::getMessage);
      throw failure(ModelErrorCode.forHttpStatus(e.statusCode()), e.statusCode(), message, null);
    } catch (AnthropicIoException e) {
      throw failure(ModelErrorCode.forTransportFailure(e), 0, describe(e), e);
    } catch (AnthropicInvalidDataException e) {
      throw failure(ModelErrorCode.INVALID_REPLY, 0, e.getMessage(), null);
    } catch (AnthropicException e) {
      throw failure(ModelErrorCode.forTransportFailure(e), 0, describe(e), e);
    }
  }

  /**
   * The SDK's messages carry the provider's error body; the cause is attached only for transport
   * failures, whose messages hold no response text.
   */
  private ModelException failure(ModelErrorCode code, int status, String message, Throwable cause) {
    ModelException failure = new ModelException(NAME, code, status, Redaction.redact(message, apiKey), cause);
    log.debug("Anthropic call failed: {}", failure.getMessage());
    return failure;
  }

  private static String describe(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == failure ? failure.getMessage() : failure.getMessage() + ": " + root;
  }

  @Override
  public void close() {
    client.close();
  }
}
