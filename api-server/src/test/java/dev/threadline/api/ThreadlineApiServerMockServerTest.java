package dev.threadline.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.crds.client.ThreadlineClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** The embedding contract the local launcher relies on: start, address, close, client untouched. */
class ThreadlineApiServerMockServerTest {
  @Test
  void startsOnARandomLoopbackPortAndClosesWithoutClosingTheClient() {
    SharedApiServer shared = SharedApiServer.get();
    KubernetesClient client =
        ThreadlineClients.builder("threadline-api-server")
            .withConfig(shared.client().getConfiguration())
            .build();
    try {
      RunningApiServer server =
          ThreadlineApiServer.start(client, ApiServerSettings.loopback("threadline-system"));
      ApiClient api = new ApiClient(server.baseUrl());

      assertThat(server.port()).isPositive();
      assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
      // start() returns once the caches are loaded: ready at once.
      ApiClient.Response health = api.get("/health", null);
      assertThat(health.status()).as(health.body()).isEqualTo(200);

      server.close();

      assertThatThrownBy(() -> api.get("/health/live", null))
          .isInstanceOf(UncheckedIOException.class);
      assertThat(client.namespaces().list().getItems()).isNotNull();
    } finally {
      client.close();
    }
  }
}
