package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.operator.network.RebindingDnsResolver;
import dev.threadline.operator.support.LoopbackServer;
import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.impl.InMemoryDnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The private-address check is made on the addresses the connection uses: a receiver on loopback
 * stands for the cluster, and the host names reach it only through the sender's resolver.
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
    try (WebhookSender sender = new WebhookSender(false, rebinding)) {
      rebinding.resolve("hook.test"); // the lookup a check before the request would make

      DeliveryAttempt attempt = send(sender, "http://hook.test:" + port() + "/hook");

      assertThat(attempt.retryable()).isFalse();
      assertThat(attempt.statusCode()).isNull();
      assertThat(attempt.error()).contains("hook.test resolves to a private address (127.0.0.1)");
    }
    assertThat(received).isEmpty();
  }

  @Test
  void anAddressLiteralInThePrivateRangesIsRefused() throws Exception {
    try (WebhookSender sender = new WebhookSender(false)) {
      DeliveryAttempt attempt = send(sender, "http://127.0.0.1:" + port() + "/hook");

      assertThat(attempt.retryable()).isFalse();
      assertThat(attempt.error()).contains("private address (127.0.0.1)");
    }
    assertThat(received).isEmpty();
  }

  @Test
  void whenPrivateTargetsAreAllowedTheSameNameIsDelivered() throws Exception {
    InMemoryDnsResolver names = new InMemoryDnsResolver();
    names.add("hook.test", InetAddress.getByName("127.0.0.1"));
    try (WebhookSender sender = new WebhookSender(true, names)) {
      DeliveryAttempt attempt = send(sender, "http://hook.test:" + port() + "/hook");

      assertThat(attempt.delivered()).isTrue();
      assertThat(attempt.statusCode()).isEqualTo(204);
    }
    assertThat(received).containsExactly("msg_1 application/json");
  }

  @Test
  void aNameThatDoesNotResolveIsRetriedLater() throws Exception {
    try (WebhookSender sender = new WebhookSender(false, new InMemoryDnsResolver())) {
      DeliveryAttempt attempt = send(sender, "http://nowhere.test/hook");

      assertThat(attempt.retryable()).isTrue();
      assertThat(attempt.error()).isEqualTo("cannot resolve the host nowhere.test");
    }
  }

  private static DeliveryAttempt send(WebhookSender sender, String url) throws Exception {
    return sender.send(URI.create(url), "msg_1", 1_700_000_000L, "v1,c2lnbmF0dXJl", "{}");
  }

  private int port() {
    return receiver.port();
  }
}
