package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.containers.SandboxProof;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadinessProbeTest {

  @Test
  void aContainerWithoutAnHttpGetProbeHasNone() {
    assertThat(ReadinessProbe.of(new ContainerBuilder().withName("c").build(), pod(null), Map.of()))
        .isEmpty();
  }

  @Test
  void succeedsOnceThePathAnswers2xx() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    HttpServer server =
        health(exchange -> {
          int status = asked.incrementAndGet() < 3 ? 503 : 200;
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    try {
      ReadinessProbe probe =
          ReadinessProbe.of(probed(server.getAddress().getPort()), pod(null), Map.of())
              .orElseThrow();

      assertThat(probe.await(() -> true)).isTrue();
      assertThat(asked.get()).isEqualTo(3);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aPodThatAsksForAProofIsReadyOnlyWhenTheAnswerProvesItsMountedCredential(
      @TempDir Path volumes) throws Exception {
    String credential = "the-pods-own-credential-of-43-characters-xx";
    Path access = Files.createDirectories(volumes.resolve("access"));
    Files.writeString(access.resolve("token"), credential + "\n");
    AtomicReference<String> holder =
        new AtomicReference<>("another-process-credential-of-43-chars-yyy");
    AtomicInteger asked = new AtomicInteger();
    HttpServer server =
        health(exchange -> {
          asked.incrementAndGet();
          String query = exchange.getRequestURI().getQuery();
          String challenge = query.substring(query.indexOf('=') + 1);
          byte[] body =
              ("{\"healthy\":true,\"proof\":\"" + SandboxProof.of(holder.get(), challenge) + "\"}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    try {
      ReadinessProbe probe =
          ReadinessProbe.of(
                  probed(server.getAddress().getPort()),
                  pod("access/token"),
                  Map.of("access", access))
              .orElseThrow();

      // Another process answering on the port never makes the Pod ready.
      assertThat(probe.await(() -> asked.get() < 3)).isFalse();
      holder.set(credential);
      assertThat(probe.await(() -> true)).isTrue();
    } finally {
      server.stop(0);
    }
  }

  @Test
  void givesUpWhenTheContainerStops() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    ReadinessProbe probe = // nothing listens on port 1
        ReadinessProbe.of(probed(1), pod(null), Map.of()).orElseThrow();

    assertThat(probe.await(() -> polls.incrementAndGet() < 3)).isFalse();
    assertThat(polls.get()).isEqualTo(3);
  }

  @Test
  void aProbedContainerMakesThePodReadyOnlyWhenItsProbeSucceeds() {
    PodStatusTracker tracker =
        new PodStatusTracker(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("n")
                .endMetadata()
                .withNewSpec()
                .withContainers(probed(8080))
                .endSpec()
                .build());
    Instant now = Instant.now();

    tracker.started("runner", 42, now, true);
    assertThat(ready(tracker.snapshot())).isEqualTo("False");

    tracker.ready("runner", now);
    assertThat(ready(tracker.snapshot())).isEqualTo("True");
  }

  private static String ready(PodStatus status) {
    return status.getConditions().stream()
        .filter(condition -> "Ready".equals(condition.getType()))
        .map(PodCondition::getStatus)
        .findFirst()
        .orElseThrow();
  }

  /** A started server answering {@code /health} with {@code handler}. */
  private static HttpServer health(HttpHandler handler) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/health", handler);
    server.start();
    return server;
  }

  private static Pod pod(String proof) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .withNamespace("n")
        .withAnnotations(
            proof == null ? Map.of() : Map.of(SandboxProof.READINESS_ANNOTATION, proof))
        .endMetadata()
        .build();
  }

  private static Container probed(int port) {
    return new ContainerBuilder()
        .withName("runner")
        .withImage("threadline/runner:local")
        .withNewReadinessProbe()
        .withNewHttpGet()
        .withPath("/health")
        .withPort(new IntOrString(port))
        .endHttpGet()
        .endReadinessProbe()
        .build();
  }
}
