package dev.threadline.operator.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.crds.run.Run;
import dev.threadline.history.MemoryLog;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.Usage;
import dev.threadline.operator.run.RunEventLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Keeps a run's {@link RunMemory} as an append-only log of steps in the history store: each write
 * appends only what the step added (the model's reply or a tool's result, an action line) with the
 * run's counters, so step n costs what step 1 does; a read folds the steps. The last step's number
 * is the memory's version and the run's fencing token: a worker that lost its claim to another
 * worker finds its next step written and stops ({@link Superseded}).
 */
final class RunMemoryStore {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final MemoryLog log;

  RunMemoryStore(MemoryLog log) {
    this.log = log;
  }

  /** Another worker wrote the memory since this one read it (or this worker stops). */
  static final class Superseded extends RuntimeException {
    Superseded(String run) {
      super("Run " + run + " is being worked on by another worker");
    }

    Superseded(MemoryLog.Superseded cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** A read memory with its step, the version the next write follows. */
  record Stored(RunMemory memory, long step) {}

  /**
   * What one step adds: its new messages and action lines; the counters as they are after it.
   *
   * @param snapshot set by the opening step only
   */
  record Step(
      List<ChatMessage> messages,
      List<String> actions,
      Usage usage,
      long lastEventSeq,
      String snapshot,
      int turns) {}

  Optional<Stored> read(Run run) {
    List<MemoryLog.Step> steps = log.read(RunEventLog.key(run));
    if (steps.isEmpty()) {
      return Optional.empty();
    }
    List<ChatMessage> messages = new ArrayList<>();
    List<String> actions = new ArrayList<>();
    Step last = null;
    String snapshot = null;
    for (MemoryLog.Step stored : steps) {
      last = parse(run, stored.entry());
      messages.addAll(last.messages());
      actions.addAll(last.actions());
      snapshot = last.snapshot() != null ? last.snapshot() : snapshot;
    }
    return Optional.of(
        new Stored(
            new RunMemory(
                messages, last.usage(), actions, last.lastEventSeq(), snapshot, last.turns()),
            steps.getLast().step()));
  }

  /**
   * Appends {@code memory} as the step after {@code previous} (null: the first step): only what it
   * adds to {@code previous}'s memory.
   *
   * @throws Superseded when another worker wrote that step
   */
  Stored write(Run run, Stored previous, RunMemory memory) {
    RunMemory before = previous == null ? null : previous.memory();
    int knownMessages = before == null ? 0 : before.messages().size();
    int knownActions = before == null ? 0 : before.actions().size();
    Step step =
        new Step(
            memory.messages().subList(knownMessages, memory.messages().size()),
            memory.actions().subList(knownActions, memory.actions().size()),
            memory.usage(),
            memory.lastEventSeq(),
            before != null && Objects.equals(before.snapshot(), memory.snapshot())
                ? null
                : memory.snapshot(),
            memory.turns());
    long number = previous == null ? 1 : previous.step() + 1;
    try {
      log.append(RunEventLog.key(run), number, serialise(step));
    } catch (MemoryLog.Superseded e) {
      throw new Superseded(e);
    }
    return new Stored(memory, number);
  }

  private static Step parse(Run run, String entry) {
    try {
      return JSON.readValue(entry, Step.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "the memory of Run " + run.getMetadata().getName() + " is unreadable", e);
    }
  }

  private static String serialise(Step step) {
    try {
      return JSON.writeValueAsString(step);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a run's memory always serialises", e);
    }
  }
}
