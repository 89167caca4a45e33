package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.deltas.DeltaEndpoint;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.deltas.DeltaSettings;
import dev.threadline.operator.support.LiveRuns;
import dev.threadline.operator.support.LoopbackServer;
import dev.threadline.operator.support.OperatorMockServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A direct call's live channel is ended on every way out of the reconcile (which holds it in
 * try-with-resources): when the call throws an unchecked exception half-way, a reader that waits on
 * the channel gets what was sent and then the end of the stream at once, not after its timeout.
 */
@EnableKubernetesMockClient(crud = true)
class DirectDeltasClosingMockServerTest {
  private static final String TOKEN = "internal-token-for-tests";
  static KubernetesMockServer server;
  static KubernetesClient client;

  private DeltaHub hub;
  private LoopbackServer channel;

  @BeforeEach
  void serveChannel() {
    OperatorMockServer.registerCrds(server, client);
    hub = new DeltaHub(new DeltaSettings(TOKEN, ""));
    DeltaEndpoint endpoint = new DeltaEndpoint(hub);
    channel = LoopbackServer.start(DeltaWire.PATH, endpoint::handle);
    hub.served(channel.baseUrl());
  }

  @AfterEach
  void stopChannel() {
    channel.close();
  }

  @Test
  void aCallThatThrowsEndsTheStreamAtOnceWithWhatWasSent() throws Exception {
    Run run = LiveRuns.create(client, "alice", "thread-broken", "Explain monads", true);
    RunStatus status = new RunStatus();
    AtomicReference<CompletableFuture<List<JsonNode>>> reader = new AtomicReference<>();

    assertThatThrownBy(
            () -> {
              try (DirectDeltas live = DirectDeltas.open(hub, run, status, client)) {
                reader.set(
                    CompletableFuture.supplyAsync(
                        () -> LiveRuns.read(status.getDeltaChannel(), TOKEN)));
                live.text(run).onText("A monad is");
                throw new IllegalStateException("the model client broke half-way");
              }
            })
        .hasMessage("the model client broke half-way");

    // Without the close the reader would wait for the session's end (no end ever comes).
    List<JsonNode> lines = reader.get().get(2, TimeUnit.SECONDS);
    assertThat(LiveRuns.textDeltas(lines)).containsExactly("A monad is");
    assertThat(lines)
        .as("no mark: nothing of the log was written")
        .noneMatch(line -> line.path("type").asText().equals(DeltaWire.WRITTEN));
    // The close waited for the announcement: the Run names the channel the reader read.
    assertThat(current(run).getStatus().getDeltaChannel()).isEqualTo(status.getDeltaChannel());
  }

  @Test
  void endingTheChannelMarksTheLogAndAClosingAfterwardsChangesNothing() throws Exception {
    Run run = LiveRuns.create(client, "alice", "thread-whole", "Say hi", true);
    RunStatus status = new RunStatus();
    try (DirectDeltas live = DirectDeltas.open(hub, run, status, client)) {
      live.text(run).onText("Hi.");
      status.setLastEventSeq(1L); // the message, the first entry of the run's log

      live.end(status);
    }

    List<JsonNode> lines =
        CompletableFuture.supplyAsync(() -> LiveRuns.read(status.getDeltaChannel(), TOKEN))
            .get(2, TimeUnit.SECONDS);
    assertThat(lines).hasSize(2);
    assertThat(LiveRuns.textDeltas(lines)).containsExactly("Hi.");
    assertThat(lines.getLast().path("type").asText()).isEqualTo(DeltaWire.WRITTEN);
    assertThat(lines.getLast().path("seq").asLong()).isEqualTo(1);
  }

  @Test
  void aRunThatDidNotAskForDeltasGetsNoChannel() {
    Run run = LiveRuns.create(client, "alice", "thread-quiet", "Say hi", null);
    RunStatus status = new RunStatus();
    try (DirectDeltas live = DirectDeltas.open(hub, run, status, client)) {
      assertThat(live).isSameAs(DirectDeltas.NONE);
      live.text(run).onText("dropped");
    }
    assertThat(status.getDeltaChannel()).isNull();
  }

  private static Run current(Run run) {
    return client
        .resources(Run.class)
        .inNamespace(run.getMetadata().getNamespace())
        .withName(run.getMetadata().getName())
        .get();
  }
}
