package dev.threadline.operator.support;

import dev.threadline.models.ModelSettings;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.deltas.DeltaSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/** An operator whose model is a streaming stand-in and whose delta channel serves on loopback. */
public final class DeltaChannelOperators {
  private DeltaChannelOperators() {}

  /**
   * @param provider {@link ModelSettings#OPENAI} or {@link ModelSettings#ANTHROPIC}
   * @param token the internal token the channel asks for
   */
  public static ThreadlineOperator start(
      KubernetesClient client, String provider, String baseUrl, String token) {
    ThreadlineOperator operator =
        ThreadlineOperator.start(
            client,
            OperatorSettings.defaults()
                .withModel(
                    new ModelSettings(
                        provider, "stand-in", baseUrl, "test-key", Duration.ofSeconds(10)))
                .withDeltas(new DeltaSettings(token, "")));
    operator.serveHttpEndpoints(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return operator;
  }
}
