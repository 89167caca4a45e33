package dev.threadline.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunUpdatesTest {
  private final RunUpdates updates = new RunUpdates();

  @Test
  void aFollowerHearsOnlyItsOwnRunAmongManyOthers() {
    List<RunUpdate> heard = new ArrayList<>();
    RunUpdates.Subscription subscription = updates.subscribe("ns", "run-a-1", heard::add);
    Run own = run("ns", "run-a-1");

    for (int i = 0; i < 1_000; i++) {
      Run other = run(i % 2 == 0 ? "ns" : "other", "run-b-" + i);
      updates.onAdd(other);
      updates.onUpdate(other, other);
      if (i == 500) {
        updates.onUpdate(own, own);
      }
    }
    updates.onAdd(run("other", "run-a-1")); // the same name in another namespace
    updates.onDelete(own, false);

    assertThat(heard)
        .extracting(RunUpdate::kind)
        .containsExactly(RunUpdate.Kind.CHANGED, RunUpdate.Kind.DELETED);
    assertThat(heard).allSatisfy(update -> assertThat(update.run()).isSameAs(own));

    subscription.close();
    updates.onUpdate(own, own);
    assertThat(heard).hasSize(2);
  }

  private static Run run(String namespace, String name) {
    Run run = new Run();
    run.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
    return run;
  }
}
