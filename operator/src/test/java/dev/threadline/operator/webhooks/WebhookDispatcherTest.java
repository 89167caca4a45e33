package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deliveries as a receiver sees them: a loopback server that verifies every request the way the
 * Standard Webhooks spec tells receivers to, and fails on purpose to make the sender retry.
 */
class WebhookDispatcherTest {
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final RetrySchedule FAST = RetrySchedule.exponential(Duration.ofMillis(50), 2, 4);

  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final List<DeliveryRecord> records = new CopyOnWriteArrayList<>();
  private final AtomicInteger failuresToGo = new AtomicInteger();
  private HttpServer receiver;
  private WebhookDispatcher dispatcher;

  record Received(String id, String timestamp, String body, boolean verified) {}

  @BeforeEach
  void start() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext("/hook", this::receive);
    receiver.start();
    dispatcher = new WebhookDispatcher(FAST, records::add, Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    dispatcher.close();
    receiver.stop(0);
  }

  @Test
  void signsAsTheStandardWebhooksSpecExampleDoes() {
    assertThat(WebhookSigner.ofSecret(SECRET).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}"))
        .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  @Test
  void aReceiverThatFailsTwiceGetsTheSameMessageThreeTimesAndVerifiesEveryOne() {
    failuresToGo.set(2);
    WebhookMessage message = WebhookMessage.of("alice/run-abc-1", "run.completed", Instant.parse("2026-11-01T10:00:00Z"),
        url(), Map.of("id", "run_abc-1", "threadId", "thread_abc", "status", "completed"));

    dispatcher.deliver(message, url(), WebhookSigner.ofSecret(SECRET));

    await().atMost(Duration.ofSeconds(10)).until(() -> records.stream()
        .anyMatch(record -> record.state() == DeliveryRecord.State.DELIVERED));
    assertThat(received).hasSize(3).allSatisfy(request -> {
      assertThat(request.verified()).isTrue();
      assertThat(request.id()).isEqualTo(message.id());
      assertThat(request.body()).isEqualTo(message.body());
    });
    assertThat(received.getFirst().body()).contains("\"type\":\"run.completed\"").contains("\"threadId\":\"thread_abc\"");
    assertThat(records).extracting(DeliveryRecord::attempts, DeliveryRecord::lastStatus, DeliveryRecord::state)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, 500, DeliveryRecord.State.PENDING),
            org.assertj.core.groups.Tuple.tuple(2, 500, DeliveryRecord.State.PENDING),
            org.assertj.core.groups.Tuple.tuple(3, 200, DeliveryRecord.State.DELIVERED));
    assertThat(records.getFirst().nextAttemptAt()).isNotNull();
  }

  @Test
  void aReceiverThatNeverRecoversGetsTheBoundedNumberOfAttempts() {
    failuresToGo.set(Integer.MAX_VALUE);
    WebhookMessage message = WebhookMessage.of("alice/env-main", "build.failed", Instant.now(), url(),
        Map.of("id", "env_main", "status", "failed"));

    dispatcher.deliver(message, url(), WebhookSigner.ofSecret(SECRET));

    await().atMost(Duration.ofSeconds(10)).until(() -> records.stream()
        .anyMatch(record -> record.state() == DeliveryRecord.State.FAILED));
    assertThat(received).hasSize(FAST.maxAttempts()).extracting(Received::id).containsOnly(message.id());
    assertThat(records.getLast().nextAttemptAt()).isNull();
  }

  @Test
  void theMessageIdDependsOnWhatItReportsOnly() {
    Instant time = Instant.now();
    assertThat(WebhookMessage.of("a/run-1", "run.completed", time, "http://x", Map.of()).id())
        .isEqualTo(WebhookMessage.of("a/run-1", "run.completed", time.plusSeconds(5), "http://x", Map.of()).id())
        .isNotEqualTo(WebhookMessage.of("a/run-2", "run.completed", time, "http://x", Map.of()).id())
        .isNotEqualTo(WebhookMessage.of("a/run-1", "run.completed", time, "http://y", Map.of()).id())
        .startsWith("msg_");
  }

  private String url() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
  }

  private void receive(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String id = exchange.getRequestHeaders().getFirst("webhook-id");
    String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
    String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
    received.add(new Received(id, timestamp, body, verify(id, timestamp, signatures, body)));
    int status = failuresToGo.getAndDecrement() > 0 ? 500 : 200;
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  /** The receiver's side of the spec: fresh timestamp, and one of the v1 signatures matches in constant time. */
  private static boolean verify(String id, String timestamp, String signatures, String body) {
    try {
      long sent = Long.parseLong(timestamp);
      if (Math.abs(Instant.now().getEpochSecond() - sent) > 300) {
        return false;
      }
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
      byte[] expected = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
      for (String signature : signatures.split(" ")) {
        String[] parts = signature.split(",", 2);
        if (parts[0].equals("v1") && MessageDigest.isEqual(expected, Base64.getDecoder().decode(parts[1]))) {
          return true;
        }
      }
      return false;
    } catch (Exception malformed) {
      return false;
    }
  }
}
