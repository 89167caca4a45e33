package dev.threadline.operator.webhooks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers signed messages over HTTP POST and retries the ones that fail (non-2xx, timeout,
 * connection error) on a schedule: a retry is a scheduled task, never a sleeping thread. Every
 * change of a delivery's state goes to the {@code recorder}, which keeps the delivery record.
 */
public final class WebhookDispatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT)
      .followRedirects(HttpClient.Redirect.NEVER).build();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("webhook-retries").factory());
  private final RetrySchedule retries;
  private final Consumer<DeliveryRecord> recorder;
  private final Clock clock;

  public WebhookDispatcher(RetrySchedule retries, Consumer<DeliveryRecord> recorder, Clock clock) {
    this.retries = retries;
    this.recorder = recorder;
    this.clock = clock;
  }

  /** Sends {@code message} to {@code url} now, and retries it as the schedule says. */
  public void deliver(WebhookMessage message, String url, WebhookSigner signer) {
    attempt(message, url, signer, 1);
  }

  private void attempt(WebhookMessage message, String url, WebhookSigner signer, int attempt) {
    long timestamp = clock.instant().getEpochSecond();
    HttpRequest request = HttpRequest.newBuilder(URI.create(url))
        .timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .header("webhook-id", message.id())
        .header("webhook-timestamp", Long.toString(timestamp))
        .header("webhook-signature", signer.sign(message.id(), timestamp, message.body()))
        .POST(HttpRequest.BodyPublishers.ofString(message.body()))
        .build();
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenComplete((response, failure) -> settle(message, url, signer, attempt,
            failure == null ? response.statusCode() : 0, failure));
  }

  private void settle(WebhookMessage message, String url, WebhookSigner signer, int attempt, int status,
      Throwable failure) {
    if (status >= 200 && status < 300) {
      recorder.accept(new DeliveryRecord(message.id(), message.type(), url, attempt, status, null,
          DeliveryRecord.State.DELIVERED));
      return;
    }
    Optional<Duration> wait = retries.delayAfter(attempt);
    log.info("Webhook {} ({}) to {}: attempt {} failed ({}){}", message.id(), message.type(), url, attempt,
        failure == null ? "HTTP " + status : failure.toString(), wait.map(d -> "; retrying in " + d).orElse("; giving up"));
    Instant next = wait.map(clock.instant()::plus).orElse(null);
    recorder.accept(new DeliveryRecord(message.id(), message.type(), url, attempt, status, next,
        wait.isPresent() ? DeliveryRecord.State.PENDING : DeliveryRecord.State.FAILED));
    wait.ifPresent(delay -> timer.schedule(() -> attempt(message, url, signer, attempt + 1),
        delay.toMillis(), TimeUnit.MILLISECONDS));
  }

  @Override
  public void close() {
    timer.shutdownNow();
    http.close();
  }
}
