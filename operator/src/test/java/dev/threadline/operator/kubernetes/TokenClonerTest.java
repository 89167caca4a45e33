package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
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
    copy.getStatus().getEvents().get(0).setType("changed");
    copy.getStatus().setPhase("failed");
    copy.getMetadata().getLabels().put("added", "x");
    assertThat(run.getStatus().getEvents().get(0).getType()).isEqualTo("message");
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
    RunEvent event = new RunEvent();
    event.setSeq(1L);
    event.setType("message");
    event.setTime("2026-11-26T11:00:00.123Z");
    event.setData(JsonNodeFactory.instance.objectNode().put("text", "Hi \"there\"").put("n", 1.5));
    List<RunEvent> events = new ArrayList<>();
    events.add(event);
    status.setEvents(events);
    run.setStatus(status);
    return run;
  }
}
