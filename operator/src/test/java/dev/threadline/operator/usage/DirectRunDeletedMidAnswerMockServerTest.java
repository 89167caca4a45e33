package dev.threadline.operator.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.support.DeltaChannelOperators;
import dev.threadline.operator.support.LiveRuns;
import dev.threadline.operator.support.OpenAiStandIn;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Run deleted while its direct answer is being made (before its route is written) stays until the
 * answer is written, and is counted with what the model spent on it.
 */
@EnableKubernetesMockClient(crud = true)
class DirectRunDeletedMidAnswerMockServerTest {
  private static final String NS = "carol";
  static KubernetesMockServer server;
  static KubernetesClient client;
  private static ThreadlineOperator operator;
  private static OpenAiStandIn model;

  @BeforeAll
  static void startOperator() throws Exception {
    // The first token comes after 2 s: long enough to delete the Run while the call is made.
    model = new OpenAiStandIn(Duration.ofSeconds(2), Duration.ofMillis(10));
    operator = DeltaChannelOperators.start(server, client, model, "token");
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
    model.close();
  }

  @Test
  void aRunDeletedWhileItsDirectAnswerIsMadeIsCountedBeforeItGoes() {
    model.answerText("Counted ", "anyway.");
    int callsBefore = model.requests().size();
    Run run = LiveRuns.create(client, NS, "thread-deleted", "Hello there", null);
    await().atMost(Duration.ofSeconds(20)).until(() -> model.requests().size() > callsBefore);

    client.resource(run).delete();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            client.resources(Run.class).inNamespace(NS).withName(run.getMetadata().getName()).get()
                == null);
    UsageLedger ledger =
        client
            .resources(UsageLedger.class)
            .inNamespace(NS)
            .withName(UsagePeriod.of(Clock.systemUTC().instant()).ledgerName())
            .get();
    assertThat(ledger).as("the month's ledger").isNotNull();
    assertThat(ledger.getStatus().getRuns()).isEqualTo(1L);
    assertThat(ledger.getStatus().getInputTokens()).isPositive();
  }
}
