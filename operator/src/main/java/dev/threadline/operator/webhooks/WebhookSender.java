package dev.threadline.operator.webhooks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Sends one signed message, synchronously: a POST with the Standard Webhooks headers, 10 s to
 * connect and 10 s for the answer, redirects not followed (a 3xx is a failed attempt).
 */
public final class WebhookSender implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(10);
  static final String USER_AGENT = "Threadline-Webhooks/1";

  private final HttpClient http =
      HttpClient.newBuilder()
          .connectTimeout(TIMEOUT)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  /**
   * POSTs {@code body} to {@code url}; the outcome, never an exception, for anything the network
   * does.
   */
  public DeliveryAttempt send(
      URI url, String messageId, long timestampSeconds, String signature, String body)
      throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(url)
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .header("User-Agent", USER_AGENT)
            .header("webhook-id", messageId)
            .header("webhook-timestamp", Long.toString(timestampSeconds))
            .header("webhook-signature", signature)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
      return DeliveryAttempt.response(response.statusCode());
    } catch (HttpTimeoutException e) {
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
    http.close();
  }
}
