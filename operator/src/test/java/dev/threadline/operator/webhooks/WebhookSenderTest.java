package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.network.TargetUrl;
import dev.threadline.operator.network.RebindingDnsResolver;
import dev.threadline.operator.support.LoopbackServer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.impl.InMemoryDnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The address check is made on the addresses the connection uses: a receiver on loopback stands for
 * the cluster, and the host names reach it only through the sender's resolver. Nothing here
 * connects anywhere but loopback: a refused address is never dialled.
 */
class WebhookSenderTest {
  private final List<String> received = new CopyOnWriteArrayList<>();
  private LoopbackServer receiver;

  @BeforeEach
  void startReceiver() {
    receiver =
        LoopbackServer.start(exchange -> {
          received.add(
              exchange.getRequestHeaders().getFirst("webhook-id")
                  + " "
                  + exchange.getRequestHeaders().getFirst("Content-Type"));
          exchange.sendResponseHeaders(204, -1);
        });
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }

  @Test
  void aNameThatResolvesToAPrivateAddressWhenConnectingIsRefusedAndNothingIsSent()
      throws Exception {
    // Public to any earlier lookup, loopback to the one the connection makes: DNS rebinding.
    DnsResolver rebinding = new RebindingDnsResolver("93.184.216.34", "127.0.0.1");
    try (WebhookSender sender = new WebhookSender(AllowedTargets.PUBLIC, rebinding)) {
      rebinding.resolve("hook.test"); // the lookup a check before the request would make

      DeliveryAttempt attempt = send(sender, "http://hook.test:" + port() + "/hook");

      assertThat(attempt.retryable()).isFalse();
      assertThat(attempt.statusCode()).isNull();
      assertThat(attempt.error())
          .isEqualTo(
              "hook.test (127.0.0.1) is a loopback address; allowed only with"
                  + " THREADLINE_WEBHOOK_ALLOWED_TARGETS=loopback or private");
    }
    assertThat(received).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.1", "169.254.169.254", "0.0.0.0"})
  void underLoopbackANameRebindingToAPrivateOrMetadataAddressIsRefused(String later)
      throws Exception {
    DnsResolver rebinding = new RebindingDnsResolver("127.0.0.1", later);
    try (WebhookSender sender = new WebhookSender(AllowedTargets.LOOPBACK, rebinding)) {
      rebinding.resolve("hook.test");

      DeliveryAttempt attempt = send(sender, "http://hook.test:" + port() + "/hook");

      assertThat(attempt.retryable()).isFalse();
      assertThat(attempt.error()).startsWith("hook.test (" + later + ") is a");
    }
    assertThat(received).isEmpty();
  }

  @Test
  void anAddressLiteralIsCheckedWithoutAnyLookup() throws Exception {
    try (WebhookSender sender =
        new WebhookSender(AllowedTargets.PUBLIC, new FailingDnsResolver())) {
      DeliveryAttempt attempt = send(sender, "http://127.0.0.1:" + port() + "/hook");

      assertThat(attempt.retryable()).isFalse();
      assertThat(attempt.error()).startsWith("127.0.0.1 is a loopback address");
    }
    assertThat(received).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"[::ffff:127.0.0.1]", "[::127.0.0.1]", "[::1]"})
  void ipv6FormsOfLoopbackAreLoopback(String host) throws Exception {
    try (WebhookSender sender =
        new WebhookSender(AllowedTargets.PUBLIC, new FailingDnsResolver())) {
      DeliveryAttempt attempt = send(sender, "http://" + host + ":" + port() + "/hook");

      assertThat(attempt.retryable()).isFalse();
      assertThat(attempt.error()).contains("is a loopback address");
    }
    assertThat(received).isEmpty();
  }

  @Test
  void underLoopbackALoopbackLiteralIsDelivered() throws Exception {
    try (WebhookSender sender =
        new WebhookSender(AllowedTargets.LOOPBACK, new FailingDnsResolver())) {
      DeliveryAttempt attempt = send(sender, "http://127.0.0.1:" + port() + "/hook");

      assertThat(attempt.delivered()).isTrue();
    }
    assertThat(received).containsExactly("msg_1 application/json");
  }

  @Test
  void whenLoopbackTargetsAreAllowedTheSameNameIsDelivered() throws Exception {
    InMemoryDnsResolver names = new InMemoryDnsResolver();
    names.add("hook.test", InetAddress.getByName("127.0.0.1"));
    try (WebhookSender sender = new WebhookSender(AllowedTargets.LOOPBACK, names)) {
      DeliveryAttempt attempt = send(sender, "http://hook.test:" + port() + "/hook");

      assertThat(attempt.delivered()).isTrue();
      assertThat(attempt.statusCode()).isEqualTo(204);
    }
    assertThat(received).containsExactly("msg_1 application/json");
  }

  @Test
  void aNameThatDoesNotResolveIsRetriedLater() throws Exception {
    try (WebhookSender sender =
        new WebhookSender(AllowedTargets.PUBLIC, new InMemoryDnsResolver())) {
      DeliveryAttempt attempt = send(sender, "http://nowhere.test/hook");

      assertThat(attempt.retryable()).isTrue();
      assertThat(attempt.error()).isEqualTo("cannot resolve the host nowhere.test");
    }
  }

  private static DeliveryAttempt send(WebhookSender sender, String url) throws Exception {
    return sender.send(TargetUrl.parse(url), "msg_1", 1_700_000_000L, "v1,c2lnbmF0dXJl", "{}");
  }

  private int port() {
    return receiver.port();
  }

  /** Literals must never be looked up. */
  private static final class FailingDnsResolver implements DnsResolver {
    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
      throw new UnknownHostException("looked up " + host);
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
      throw new UnknownHostException("looked up " + host);
    }
  }
}
