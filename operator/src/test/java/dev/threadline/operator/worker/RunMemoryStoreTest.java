package dev.threadline.operator.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.history.History;
import dev.threadline.history.MemoryLog;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.Usage;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.support.Runs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RunMemoryStoreTest {
  private final History history = History.temporary();
  private final RunMemoryStore store = new RunMemoryStore(history.memory());
  private final Run run = Runs.run(1, "work", RunPhase.RUNNING.value(), null, 0, 0, 0);

  @AfterEach
  void close() {
    history.close();
  }

  @Test
  void aReadFoldsTheStepsIntoTheMemoryAsItWasWritten() {
    RunMemory opening =
        RunMemory.opening(List.of(ChatMessage.user("do it")), "snap-1", 3, new Usage(5, 1, 0));
    RunMemoryStore.Stored first = store.write(run, null, opening);
    RunMemory replied =
        opening.afterReply(ChatMessage.assistant("thinking"), new Usage(20, 4, 0), 5);
    RunMemoryStore.Stored second = store.write(run, first, replied);
    RunMemory tooled = replied.afterTool(ChatMessage.toolResult("tool_1", "ok"), "ran `ls`", 7);
    store.write(run, second, tooled);

    RunMemoryStore.Stored read = store.read(run).orElseThrow();
    assertThat(read.step()).isEqualTo(3);
    assertThat(read.memory()).isEqualTo(tooled);
  }

  @Test
  void stepNCostsOneInsertOfThatStepsSizeHoweverLongTheRunIs() {
    String output = "x".repeat(10_000);
    RunMemory memory = RunMemory.opening(List.of(ChatMessage.user("go")), null, 0, Usage.ZERO);
    RunMemoryStore.Stored stored = store.write(run, null, memory);
    List<Long> bytesPerStep = new ArrayList<>();
    for (int step = 1; step <= 200; step++) {
      memory = memory.afterTool(ChatMessage.toolResult("tool_" + step, output), "ran `cmd`", step);
      long before = history.usage().bytes("ns");
      stored = store.write(run, stored, memory);
      bytesPerStep.add(history.usage().bytes("ns") - before);
    }

    // One row per step, and step 200 stores what step 10 does: what it adds, not the whole memory.
    assertThat(history.memory().read(RunEventLog.key(run))).hasSize(201);
    long tenth = bytesPerStep.get(9);
    assertThat(tenth).isBetween(10_000L, 10_400L);
    assertThat(bytesPerStep.get(199)).isBetween(tenth - 8, tenth + 8);
    assertThat(store.read(run).orElseThrow().memory().messages()).hasSize(201);
  }

  @Test
  void aWorkerThatLostItsClaimCannotAppend() {
    RunMemory opening = RunMemory.opening(List.of(ChatMessage.user("go")), null, 0, Usage.ZERO);
    store.write(run, null, opening);
    // Two workers went on from the same step: the new holder and the one that lost the claim.
    RunMemoryStore.Stored newHolder = store.read(run).orElseThrow();
    RunMemoryStore.Stored lostClaim = store.read(run).orElseThrow();
    store.write(run, newHolder, opening.afterReply(ChatMessage.assistant("a"), Usage.ZERO, 1));

    assertThatThrownBy(() ->
            store.write(
                run, lostClaim, opening.afterReply(ChatMessage.assistant("b"), Usage.ZERO, 1)))
        .isInstanceOf(RunMemoryStore.Superseded.class)
        .hasCauseInstanceOf(MemoryLog.Superseded.class);
    assertThat(store.read(run).orElseThrow().memory().finalReply()).contains("a");
  }
}
