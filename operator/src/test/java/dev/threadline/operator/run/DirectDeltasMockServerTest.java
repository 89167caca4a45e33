package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.crds.run.Run;
import dev.threadline.operator.support.DeltaChannelOperators;
import dev.threadline.operator.support.LiveRuns;
import dev.threadline.operator.support.OpenAiStandIn;
import dev.threadline.operator.support.RunLogs;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The direct path of a run that asked for {@code streamTokens}, against an OpenAI-compatible
 * stand-in: the reconciler names its live channel in the Run's status before the model writes,
 * serves the text there as it comes (one model call), and marks the log entries the deltas precede
 * before it writes them.
 */
@EnableKubernetesMockClient(crud = true)
class DirectDeltasMockServerTest {
  private static final String NS = "alice";
  private static final String TOKEN = "internal-token-for-tests";
  static KubernetesMockServer server;
  static KubernetesClient client;

  @RegisterExtension
  static final DeltaChannelOperators.PerClass<OpenAiStandIn> live =
      DeltaChannelOperators.perClass(
          () -> server,
          () -> client,
          () -> new OpenAiStandIn(Duration.ofMillis(300), Duration.ofMillis(20)),
          TOKEN);

  private static OpenAiStandIn model;

  @BeforeAll
  static void model() {
    model = live.model();
  }

  @Test
  void answerIsServedOnTheRunsChannelAsItIsWrittenFromOneModelCall() {
    int callsBefore = model.requests().size();
    model.answerText("A monad ", "is a monoid ", "in the category ", "of endofunctors.");
    Run run = LiveRuns.create(client, NS, "thread-live", "What is a monad?", true);

    String channel = LiveRuns.awaitChannel(client, run);
    assertThat(channel).startsWith("http://127.0.0.1:").contains(DeltaWire.PATH);
    List<JsonNode> lines = LiveRuns.read(channel, TOKEN);
    Run done = LiveRuns.awaitTerminal(client, run);

    long marked = 0;
    for (JsonNode line : lines) {
      if (line.path("type").asText().equals(DeltaWire.TEXT_DELTA)) {
        assertThat(marked).as("no delta after the mark").isZero();
        assertThat(line.path("item_id").asText()).isEqualTo("msg_live-1");
      } else if (line.path("type").asText().equals(DeltaWire.WRITTEN)) {
        marked = line.path("seq").asLong();
      }
    }
    List<String> deltas = LiveRuns.textDeltas(lines);
    assertThat(deltas).hasSizeGreaterThan(1);
    assertThat(String.join("", deltas)).isEqualTo(done.getStatus().getResponse());
    List<RunLogs.Event> log = RunLogs.events(live.operator().history(), done);
    assertThat(marked).isEqualTo(log.getLast().seq());
    assertThat(done.getStatus().getLastEventSeq()).isEqualTo(marked);
    assertThat(message(done).data().path(DeltaWire.ITEM_ID).asText()).isEqualTo("msg_live-1");
    assertThat(model.requests().size() - callsBefore).as("model calls").isEqualTo(1);
  }

  @Test
  void channelRefusesCallersWithoutTheTokenAndUnknownSessions() throws Exception {
    model.answerText("Hi.");
    Run run = LiveRuns.create(client, NS, "thread-guarded", "Hello there", true);
    String channel = LiveRuns.awaitChannel(client, run);
    assertThat(LiveRuns.status(channel, "wrong")).isEqualTo(401);
    assertThat(LiveRuns.status(channel.substring(0, channel.lastIndexOf('/') + 1) + "00", TOKEN))
        .isEqualTo(404);
    LiveRuns.awaitTerminal(client, run);
  }

  @Test
  void runWithoutStreamTokensHasNoChannelAndKeepsItsItemIds() {
    model.answerText("Plain ", "answer.");
    Run run = LiveRuns.create(client, NS, "thread-plain", "Tell me something", null);
    Run done = LiveRuns.awaitTerminal(client, run);
    assertThat(done.getStatus().getDeltaChannel()).isNull();
    assertThat(done.getStatus().getResponse()).isEqualTo("Plain answer.");
    assertThat(message(done).data().has(DeltaWire.ITEM_ID)).isFalse();
  }

  static RunLogs.Event message(Run run) {
    return RunLogs.events(live.operator().history(), run).stream()
        .filter(event -> "message".equals(event.type()))
        .findFirst()
        .orElseThrow();
  }
}
