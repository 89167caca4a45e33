package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which informer stops end the process: only an error while the operator is not being closed. */
class InformerStopsTest {
  private final KubernetesClient client =
      new KubernetesClientBuilder()
          .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build())
          .build();
  // Never run: the handler only reads its type.
  private final SharedIndexInformer<Pod> informer =
      client.pods().inAnyNamespace().runnableInformer(0);
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicInteger exits = new AtomicInteger();
  private final InformerStops stops = new InformerStops(stopping::get, exits::incrementAndGet);

  @AfterEach
  void closeClient() {
    client.close();
  }

  @Test
  void anErrorWhileTheOperatorRunsEndsTheProcess() {
    stops.onStop(informer, new KubernetesClientException("watch lost"));

    assertThat(exits).hasValue(1);
  }

  @Test
  void anErrorWhileTheOperatorIsBeingClosedIsOnlyLogged() {
    stopping.set(true);

    stops.onStop(informer, new KubernetesClientException("client closed"));

    assertThat(exits).hasValue(0);
  }

  @Test
  void aStopWithoutAnErrorIsOnlyLogged() {
    stops.onStop(informer, null);

    assertThat(exits).hasValue(0);
  }
}
