package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.operator.support.AnthropicStandIn;
import dev.threadline.operator.support.DeltaChannelOperators;
import dev.threadline.operator.support.LiveRuns;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The direct path's deltas with the Anthropic client, against a Messages stand-in that streams. */
@EnableKubernetesMockClient(crud = true)
class AnthropicDirectDeltasMockServerTest {
  private static final String TOKEN = "internal-token-for-tests";
  static KubernetesMockServer server;
  static KubernetesClient client;

  @RegisterExtension
  static final DeltaChannelOperators.PerClass<AnthropicStandIn> live =
      DeltaChannelOperators.perClass(
          () -> server,
          () -> client,
          () -> new AnthropicStandIn(Duration.ofMillis(300), Duration.ofMillis(20)),
          TOKEN);

  private static AnthropicStandIn model;

  @BeforeAll
  static void model() {
    model = live.model();
  }

  @Test
  void answerArrivesInOrderOnTheChannelAndJoinsToTheAnswerFromOneModelCall() {
    model.answerText("Bonjour", ", le", " monde", " entier.");
    Run run = LiveRuns.create(client, "bob", "thread-claude", "Say hello in French", true);

    List<String> deltas =
        LiveRuns.textDeltas(LiveRuns.read(LiveRuns.awaitChannel(client, run), TOKEN));
    Run done = LiveRuns.awaitTerminal(client, run);

    assertThat(deltas).containsExactly("Bonjour", ", le", " monde", " entier.");
    assertThat(done.getStatus().getResponse()).isEqualTo("Bonjour, le monde entier.");
    assertThat(model.requests()).hasSize(1);
    assertThat(model.requests().getFirst().path("stream").asBoolean()).isTrue();
  }
}
