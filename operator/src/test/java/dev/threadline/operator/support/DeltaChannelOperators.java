package dev.threadline.operator.support;

import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.deltas.DeltaSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/** An operator whose model is a streaming stand-in and whose delta channel serves on loopback. */
public final class DeltaChannelOperators {
  private DeltaChannelOperators() {}

  /**
   * Starts it against the mock server, with Threadline's CRDs registered there.
   *
   * @param token the internal token the channel asks for
   */
  public static ThreadlineOperator start(
      KubernetesMockServer server, KubernetesClient client, ModelStandIn<?> model, String token) {
    OperatorMockServer.registerCrds(server, client);
    ThreadlineOperator operator =
        ThreadlineOperator.start(
            client,
            OperatorSettings.defaults()
                .withModel(model.settings(Duration.ofSeconds(10)))
                .withDeltas(new DeltaSettings(token, "")));
    operator.serveHttpEndpoints(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return operator;
  }
}
