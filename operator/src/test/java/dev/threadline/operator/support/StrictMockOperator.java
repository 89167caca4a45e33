package dev.threadline.operator.support;

import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A whole {@link ThreadlineOperator} against the strict CRUD mock ({@link StrictStatusDispatcher},
 * Threadline's CRDs registered), for one test class: register it as a static
 * {@code @RegisterExtension} field; it starts before the class's {@code @BeforeAll} methods and is
 * closed after its {@code @AfterAll} ones.
 */
public final class StrictMockOperator implements BeforeAllCallback, AfterAllCallback {
  private final OperatorSettings settings;
  private KubernetesMockServer server;
  private KubernetesClient client;
  private ThreadlineOperator operator;

  public StrictMockOperator(OperatorSettings settings) {
    this.settings = settings;
  }

  /** With the settings these environment variables give. */
  public static StrictMockOperator withEnvironment(Map<String, String> environment) {
    return new StrictMockOperator(OperatorSettings.fromEnvironment(environment));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    operator = ThreadlineOperator.start(client, settings, Clock.systemUTC());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    operator.close();
    client.close();
    server.destroy();
  }

  public KubernetesMockServer server() {
    return server;
  }

  public KubernetesClient client() {
    return client;
  }

  public ThreadlineOperator operator() {
    return operator;
  }

  public OperatorSettings settings() {
    return settings;
  }
}
