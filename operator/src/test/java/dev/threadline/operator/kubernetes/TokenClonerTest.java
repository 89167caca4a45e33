package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenClonerTest {
  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final TokenCloner cloner = new TokenCloner(serialization);

  @Test
  void aCopyIsEqualInEveryFieldAndSharesNothingWithItsOriginal() {
    Run run = run();

    Run copy = cloner.clone(run);

    assertThat(copy).isNotSameAs(run).isInstanceOf(Run.class);
    assertThat(serialization.asJson(copy)).isEqualTo(serialization.asJson(run));
    copy.getStatus().getConditions().get(0).setType("Changed");
    copy.getStatus().setPhase("failed");
    copy.getMetadata().getLabels().put("added", "x");
    assertThat(run.getStatus().getConditions().get(0).getType()).isEqualTo("Ready");
    assertThat(run.getStatus().getPhase()).isEqualTo("completed");
    assertThat(run.getMetadata().getLabels()).doesNotContainKey("added");
  }

  private static Run run() {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder()
            .withName("thread-copy")
            .withNamespace("erin")
            .withUid("u1")
            .build());
    thread.setSpec(new ThreadSpec());
    Run run = ThreadRuns.newRun(thread, 1, "Hello!", List.of(), ThreadRuns.SOURCE_API);
    run.getMetadata().setResourceVersion("42");
    RunStatus status = new RunStatus();
    status.setPhase("completed");
    status.setCost(0.0125);
    status.setDurationMs(31L);
    status.setRouteReason("Hi \"there\" — ünïcode");
    Condition ready =
        new ConditionBuilder()
            .withType("Ready")
            .withStatus("True")
            .withReason("Completed")
            .withLastTransitionTime("2026-11-26T11:00:00.123Z")
            .build();
    List<Condition> conditions = new ArrayList<>();
    conditions.add(ready);
    status.setConditions(conditions);
    run.setStatus(status);
    return run;
  }
}
