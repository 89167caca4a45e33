package dev.threadline.operator.webhooks;

import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.network.TargetSetting;
import dev.threadline.core.network.TargetUrl;
import dev.threadline.operator.network.PublicAddressResolver;
import dev.threadline.operator.network.PublicAddressResolver.PrivateTargetRefused;
import dev.threadline.operator.network.UserUrlClients;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;

/**
 * Sends one signed message, synchronously: a POST with the Standard Webhooks headers, 10 s to
 * connect and 10 s for the answer, redirects not followed (a 3xx is a failed attempt), no proxy. An
 * IP literal is checked against the {@link AllowedTargets} before anything is sent; names are
 * resolved through {@link PublicAddressResolver}, so the client connects only to addresses that
 * were checked.
 */
public final class WebhookSender implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(10);
  static final String USER_AGENT = "Threadline-Webhooks/1";
  private static final ContentType JSON = ContentType.create("application/json");
  private static final TargetSetting SETTING =
      TargetSetting.choice(WebhookSettings.ALLOWED_TARGETS);

  private final AllowedTargets allowed;
  private final CloseableHttpClient http;

  public WebhookSender(AllowedTargets allowed) {
    this(allowed, SystemDefaultDnsResolver.INSTANCE);
  }

  /** With {@code names} resolving host names: a test's own answers. */
  WebhookSender(AllowedTargets allowed, DnsResolver names) {
    this.allowed = allowed;
    this.http = UserUrlClients.create(allowed, names, SETTING, TIMEOUT, TIMEOUT, USER_AGENT);
  }

  /**
   * POSTs {@code body} to {@code url}; the outcome, never an exception, for anything the network
   * does.
   */
  public DeliveryAttempt send(
      TargetUrl url, String messageId, long timestampSeconds, String signature, String body)
      throws InterruptedException {
    if (url.literal().isPresent()) {
      Optional<String> refusal = allowed.refusal(url.host(), url.literal().get(), SETTING);
      if (refusal.isPresent()) {
        return DeliveryAttempt.refused(refusal.get());
      }
    }
    HttpPost post = new HttpPost(url.uri());
    post.setHeader("webhook-id", messageId);
    post.setHeader("webhook-timestamp", Long.toString(timestampSeconds));
    post.setHeader("webhook-signature", signature);
    post.setEntity(new ByteArrayEntity(body.getBytes(StandardCharsets.UTF_8), JSON));
    try {
      int status =
          http.execute(
              post,
              response -> {
                EntityUtils.consume(response.getEntity());
                return response.getCode();
              });
      return DeliveryAttempt.response(status);
    } catch (PrivateTargetRefused e) {
      return DeliveryAttempt.refused(e.getMessage());
    } catch (UnknownHostException e) {
      return DeliveryAttempt.notSent("cannot resolve the host " + url.host());
    } catch (InterruptedIOException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("stopping");
      }
      return DeliveryAttempt.noResponse("no answer within " + TIMEOUT.toSeconds() + " s");
    } catch (IOException e) {
      return DeliveryAttempt.noResponse("could not reach the endpoint: " + describe(e));
    }
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  @Override
  public void close() {
    http.close(CloseMode.GRACEFUL);
  }
}
