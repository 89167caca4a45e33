package dev.threadline.operator.support;

import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.deltas.DeltaSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

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

  /**
   * One for a test class, with its model: register it as a static {@code @RegisterExtension} field
   * after the mock's fields ({@code @EnableKubernetesMockClient} fills them first).
   *
   * @param server the test class's mock server, read when the class starts
   * @param client its client, likewise
   */
  public static <M extends ModelStandIn<?>> PerClass<M> perClass(
      Supplier<KubernetesMockServer> server,
      Supplier<KubernetesClient> client,
      Supplier<M> model,
      String token) {
    return new PerClass<>(server, client, model, token);
  }

  /** Starts the model and the operator before the class's {@code @BeforeAll}; closes both after. */
  public static final class PerClass<M extends ModelStandIn<?>>
      implements BeforeAllCallback, AfterAllCallback {
    private final Supplier<KubernetesMockServer> server;
    private final Supplier<KubernetesClient> client;
    private final Supplier<M> newModel;
    private final String token;
    private M model;
    private ThreadlineOperator operator;

    private PerClass(
        Supplier<KubernetesMockServer> server,
        Supplier<KubernetesClient> client,
        Supplier<M> newModel,
        String token) {
      this.server = server;
      this.client = client;
      this.newModel = newModel;
      this.token = token;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
      model = newModel.get();
      operator = start(server.get(), client.get(), model, token);
    }

    @Override
    public void afterAll(ExtensionContext context) {
      operator.close();
      model.close();
    }

    public M model() {
      return model;
    }

    public ThreadlineOperator operator() {
      return operator;
    }
  }
}
