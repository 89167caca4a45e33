package dev.threadline.core.threads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadRunsTest {
  @Test
  void aRunIsNamedAfterItsThreadAndPositionOwnedByTheThreadAndBoundToItsAgent() {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder()
            .withName("thread-abc")
            .withNamespace("alice")
            .withUid("uid-1")
            .build());
    ThreadSpec spec = new ThreadSpec();
    spec.setAgent("agent-x");
    spec.setEnvironment("env-y");
    thread.setSpec(spec);
    Attachment file = new Attachment();
    file.setName("a.txt");

    Run run = ThreadRuns.newRun(thread, 3, "hello", List.of(file), ThreadRuns.SOURCE_API);

    assertThat(run.getMetadata().getName())
        .isEqualTo("run-abc-3")
        .isEqualTo(ThreadRuns.runName("thread-abc", 3));
    assertThat(run.getMetadata().getNamespace()).isEqualTo("alice");
    assertThat(run.getMetadata().getLabels()).containsEntry(Labels.THREAD, "thread-abc");
    assertThat(run.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getKind()).isEqualTo("Thread");
          assertThat(owner.getUid()).isEqualTo("uid-1");
          assertThat(owner.getController()).isTrue();
        });
    assertThat(run.getSpec().getSequence()).isEqualTo(3L);
    assertThat(run.getSpec().getAgent()).isEqualTo("agent-x");
    assertThat(run.getSpec().getEnvironment()).isEqualTo("env-y");
    assertThat(run.getSpec().getAttachments())
        .extracting(Attachment::getName)
        .containsExactly("a.txt");
    assertThat(run.getSpec().getSource()).isEqualTo("api");
  }
}
