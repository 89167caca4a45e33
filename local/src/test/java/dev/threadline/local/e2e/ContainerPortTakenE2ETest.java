package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.operator.sandbox.SandboxPod;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A container whose port another program takes before its runner listens, and holds longer than the
 * runner tries it: the container is made again on another port and becomes healthy there, its REST
 * answer shaped as any container's.
 */
class ContainerPortTakenE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START = Duration.ofSeconds(90);

  /** Longer than the runner tries a taken port (5 s). */
  private static final Duration HOLD = Duration.ofSeconds(30);

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void aContainerWhosePortAnotherProgramHoldsBecomesHealthyOnAnotherPort() throws Exception {
    AtomicBoolean armed = new AtomicBoolean(true);
    AtomicInteger heldPort = new AtomicInteger();
    String held;
    try (Watch racing =
        fixture
            .local()
            .client()
            .pods()
            .inNamespace("alice")
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    // The first container Pod to appear: its port leased, its runner starting.
                    if (action != Action.ADDED
                        || pod.getMetadata().getLabels() == null
                        || !pod.getMetadata()
                            .getLabels()
                            .containsKey(ContainerObjects.CONTAINER_LABEL)
                        || !armed.compareAndSet(true, false)) {
                      return;
                    }
                    SandboxPod.port(pod)
                        .ifPresent(port -> Thread.ofVirtual().start(() -> hold(port, heldPort)));
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      held = healthyContainer();
    }
    assertThat(heldPort.get())
        .as("the test held the container's port before its runner")
        .isPositive();
    JsonNode moved = container(held);
    assertThat(moved.path("status").asText()).isEqualTo("running");
    assertThat(moved.path("port").asInt()).isNotEqualTo(heldPort.get()).isBetween(8100, 8180);
    assertThat(fixture.local().client().v1().events().inNamespace("alice").list().getItems())
        .filteredOn(event -> "SandboxPortTaken".equals(event.getReason()))
        .extracting(Event::getMessage)
        .anySatisfy(message -> assertThat(message).contains("Port " + heldPort.get()));

    // Its REST answer has the same fields as a container that started at once.
    JsonNode plain = container(healthyContainer());
    List<String> movedFields = new ArrayList<>();
    moved.fieldNames().forEachRemaining(movedFields::add);
    List<String> plainFields = new ArrayList<>();
    plain.fieldNames().forEachRemaining(plainFields::add);
    assertThat(movedFields).isEqualTo(plainFields);
  }

  /** Creates an ephemeral container and returns its id once it is healthy. */
  private static String healthyContainer() throws IOException {
    HttpResponse<String> created =
        fixture.post(LocalModeFixture.ALICE_KEY, "/api/v1/containers", "{\"model\": \"scripted\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = JSON.readTree(created.body()).path("container").path("id").asText();
    ContainerFiles.awaitHealthy(
        fixture, LocalModeFixture.ALICE_KEY, "/api/v1/containers/" + id, START);
    return id;
  }

  private static JsonNode container(String id) throws IOException {
    HttpResponse<String> found =
        fixture.get(LocalModeFixture.ALICE_KEY, "/api/v1/containers/" + id);
    assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
    return JSON.readTree(found.body()).path("container");
  }

  private static void hold(int port, AtomicInteger heldPort) {
    try (ServerSocket taker = new ServerSocket()) {
      taker.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
      heldPort.set(port);
      Thread.sleep(HOLD);
    } catch (IOException | InterruptedException tooLate) {
      // the runner listens already: nothing held
    }
  }
}
