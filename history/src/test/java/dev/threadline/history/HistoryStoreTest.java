package dev.threadline.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The history store's behaviour, the same on SQLite and on a real PostgreSQL server. */
class HistoryStoreTest {
  private static final RunKey RUN = new RunKey("user-1", "thread-a", "run-thread-a-1");
  private static final String T = "2026-12-01T10:00:00Z";

  private static Stream<Engine> engines() {
    return HistoryEngines.both();
  }

  @ParameterizedTest
  @MethodSource("engines")
  void numbersEventsFromOneWithoutGapsAndRecordsAKeyOnce(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      List<StoredEvent> first =
          history
              .events()
              .append(RUN, List.of(event("started"), event("runner:1"), event("runner:2")));
      List<StoredEvent> again =
          history.events().append(RUN, List.of(event("runner:2"), event("runner:3")));

      assertThat(first).extracting(StoredEvent::seq).containsExactly(1L, 2L, 3L);
      assertThat(again).extracting(StoredEvent::seq).containsExactly(3L, 4L);
      assertThat(history.events().all(RUN))
          .extracting(StoredEvent::key)
          .containsExactly("started", "runner:1", "runner:2", "runner:3");
      assertThat(history.events().after(RUN, 2, 10))
          .extracting(StoredEvent::seq)
          .containsExactly(3L, 4L);
      assertThat(history.events().lastSeq(RUN)).isEqualTo(4);
      assertThat(history.events().lastSeq(new RunKey("user-1", "thread-a", "other"))).isZero();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void findsTheLatestEventOfATypeInARun(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      history
          .events()
          .append(
              RUN,
              List.of(
                  new NewEvent("runner:1", "result", T, "{\"n\":1}"),
                  new NewEvent("runner:2", "message", T, "{}"),
                  new NewEvent("result", "result", T, "{\"n\":2}")));

      assertThat(history.events().latestOfType(RUN, "result")).map(StoredEvent::seq).contains(3L);
      assertThat(history.events().latestOfType(RUN, "failed")).isEmpty();
      assertThat(history.events().latestOfType(new RunKey("user-1", "thread-a", "other"), "result"))
          .isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void findsAnEventByItsKey(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      history
          .events()
          .append(
              RUN,
              List.of(
                  new NewEvent("started", "started", T, "{\"task\":\"t\"}"),
                  new NewEvent("runner:1", "usage", T, "{\"n\":1}"),
                  new NewEvent("runner:2", "usage", T, "{\"n\":2}"),
                  new NewEvent("runner:3", "text", T, "{}")));

      assertThat(history.events().find(RUN, "started")).map(StoredEvent::seq).contains(1L);
      assertThat(history.events().find(RUN, "runner:9")).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void concurrentWritersOfOneRunGetDistinctNumbersWithoutGaps(Engine engine) throws Exception {
    try (History history = HistoryEngines.open(engine);
        ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        writers.add(
            pool.submit(() ->
                IntStream.range(0, 25)
                    .forEach(i ->
                        history.events().append(RUN, List.of(event("w" + writer + ":" + i))))));
      }
      for (Future<?> writer : writers) {
        writer.get();
      }
      assertThat(history.events().all(RUN))
          .extracting(StoredEvent::seq)
          .containsExactlyElementsOf(
              IntStream.rangeClosed(1, 100).mapToObj(i -> (long) i).toList());
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void keepsAnEventOfAnySizeInFull(Engine engine) {
    String output = "x".repeat(2_000_000);
    try (History history = HistoryEngines.open(engine)) {
      history
          .events()
          .append(
              RUN,
              List.of(
                  new NewEvent("runner:1", "tool_result", T, "{\"output\":\"" + output + "\"}")));
      assertThat(history.events().all(RUN).getFirst().data()).contains(output);
      assertThat(history.usage().bytes("user-1")).isGreaterThan(2_000_000);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void memoryStepsAppendAndTheSecondWriterOfAStepIsSuperseded(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      history.memory().append(RUN, 1, "{\"opening\":true}");
      history.memory().append(RUN, 2, "{\"reply\":1}");

      assertThatThrownBy(() -> history.memory().append(RUN, 2, "{\"reply\":\"other\"}"))
          .isInstanceOf(MemoryLog.Superseded.class)
          .hasMessageContaining("step 2");
      assertThatThrownBy(() -> history.memory().append(RUN, 5, "{}"))
          .isInstanceOf(IllegalStateException.class);
      assertThat(history.memory().read(RUN))
          .extracting(MemoryLog.Step::entry)
          .containsExactly("{\"opening\":true}", "{\"reply\":1}");

      history.memory().delete(RUN);
      assertThat(history.memory().read(RUN)).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void runRecordsKeepTheWholeMessageAndAnswerInSequenceOrder(Engine engine) {
    String message = "m".repeat(200_000);
    try (History history = HistoryEngines.open(engine)) {
      RunKey second = new RunKey("user-1", "thread-a", "run-thread-a-2");
      history.runs().recordMessage(second, 2, "again", T);
      history.runs().recordMessage(RUN, 1, message, T);
      history.runs().recordMessage(RUN, 1, "a retry does not replace it", T);
      history.runs().recordResponse(RUN, "the answer");
      history.runs().recordArchived(RUN, "{\"kind\":\"Run\"}");

      List<RunRecord> runs = history.runs().ofThread("user-1", "thread-a");
      assertThat(runs).extracting(RunRecord::sequence).containsExactly(1L, 2L);
      assertThat(runs.getFirst().message()).isEqualTo(message);
      assertThat(runs.getFirst().response()).isEqualTo("the answer");
      assertThat(runs.getFirst().archived()).isEqualTo("{\"kind\":\"Run\"}");
      assertThat(runs.get(1).response()).isNull();
      assertThat(history.runs().find("user-1", "run-thread-a-2"))
          .map(RunRecord::message)
          .hasValue("again");
      assertThatThrownBy(
              () -> history.runs().recordResponse(new RunKey("user-1", "thread-a", "nope"), "x"))
          .isInstanceOf(HistoryException.class);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void diffsOfAThreadAreTheLatestChangePerPath(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      RunKey second = new RunKey("user-1", "thread-a", "run-thread-a-2");
      List<StoredDiff> many = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        many.add(new StoredDiff("f" + i + ".txt", "create", "content " + i, null, null));
      }
      history.diffs().record(RUN, 1, many);
      history.diffs().record(second, 2, List.of(new StoredDiff("f1.txt", "modify", null, 3L, 1L)));
      history.diffs().record(second, 2, List.of(new StoredDiff("f1.txt", "modify", null, 4L, 2L)));

      Map<String, StoredDiff> latest = history.diffs().latestOfThread("user-1", "thread-a");
      assertThat(latest).hasSize(500);
      assertThat(latest.get("f1.txt")).isEqualTo(new StoredDiff("f1.txt", "modify", null, 4L, 2L));
      assertThat(latest.get("f2.txt").content()).isEqualTo("content 2");
      assertThat(history.diffs().ofRun(second)).hasSize(1);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void workspaceArchivesHaveNoSecretSizedCap(Engine engine) {
    byte[] zip = new byte[5 * 1024 * 1024];
    zip[0] = 'P';
    zip[zip.length - 1] = 'K';
    try (History history = HistoryEngines.open(engine)) {
      assertThat(history.workspaces().exists("user-1", "thread-a")).isFalse();
      history.workspaces().write("user-1", "thread-a", zip, T);
      history.workspaces().write("user-1", "thread-a", zip, T);
      assertThat(history.workspaces().read("user-1", "thread-a"))
          .hasValueSatisfying(read -> assertThat(read).isEqualTo(zip));
      assertThat(history.usage().bytes("user-1")).isEqualTo(zip.length);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void archivedThreadsPageNewestFirst(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      for (int i = 1; i <= 5; i++) {
        history
            .threads()
            .archive(
                new ArchivedThread(
                    "user-1",
                    "thread-" + i,
                    "2026-12-0" + i + "T00:00:00Z",
                    T,
                    "{\"n\":" + i + "}"));
      }
      history.threads().archive(new ArchivedThread("user-2", "thread-9", T, T, "{}"));

      List<ArchivedThread> first = history.threads().page("user-1", null, null, 2);
      assertThat(first).extracting(ArchivedThread::name).containsExactly("thread-5", "thread-4");
      ArchivedThread last = first.getLast();
      assertThat(history.threads().page("user-1", last.createdAt(), last.name(), 10))
          .extracting(ArchivedThread::name)
          .containsExactly("thread-3", "thread-2", "thread-1");
      assertThat(history.threads().count("user-1")).isEqualTo(5);
      history.threads().archive(new ArchivedThread("user-1", "thread-5", T, T, "{\"again\":1}"));
      assertThat(history.threads().count("user-1")).as("archived again, counted once").isEqualTo(5);
      history.threads().remove("user-1", "thread-5");
      history.threads().remove("user-1", "thread-5");
      assertThat(history.threads().find("user-1", "thread-5")).isEmpty();
      assertThat(history.threads().find("user-1", "thread-4")).isPresent();
      history.deleteThread("user-1", "thread-4");
      assertThat(history.threads().count("user-1")).isEqualTo(3);
      assertThat(history.threads().count("user-2")).isEqualTo(1);
      assertThat(history.threads().count("user-3")).isZero();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void deletingAThreadRemovesAllItsHistoryAndItsShareOfTheQuota(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      RunKey other = new RunKey("user-1", "thread-b", "run-thread-b-1");
      for (RunKey run : List.of(RUN, other)) {
        history.runs().recordMessage(run, 1, "hello", T);
        history.runs().recordResponse(run, "hi");
        history.events().append(run, List.of(event("started"), event("runner:1")));
        history.memory().append(run, 1, "{}");
        history.diffs().record(run, 1, List.of(new StoredDiff("a", "create", "x", null, null)));
        history.workspaces().write("user-1", run.thread(), new byte[] {1, 2, 3}, T);
        history.threads().archive(new ArchivedThread("user-1", run.thread(), T, T, "{}"));
        history.messageBodies().write("user-1", run.thread(), "body-" + run.thread(), "long");
        history.answers().record(run, answer("call_" + run.thread(), null, null, "main"), 100);
      }
      long both = history.usage().bytes("user-1");

      history.deleteThread("user-1", "thread-a");

      assertThat(history.runs().ofThread("user-1", "thread-a")).isEmpty();
      assertThat(history.events().all(RUN)).isEmpty();
      assertThat(history.events().lastSeq(RUN)).isZero();
      assertThat(history.memory().read(RUN)).isEmpty();
      assertThat(history.diffs().latestOfThread("user-1", "thread-a")).isEmpty();
      assertThat(history.workspaces().exists("user-1", "thread-a")).isFalse();
      assertThat(history.threads().find("user-1", "thread-a")).isEmpty();
      assertThat(history.messageBodies().read("user-1", "body-thread-a")).isEmpty();
      assertThat(history.messageBodies().read("user-1", "body-thread-b")).hasValue("long");
      assertThat(history.answers().of(RUN, "call_thread-a")).isEmpty();
      assertThat(history.answers().of(other, "call_thread-b")).isPresent();
      assertThat(history.events().all(other)).hasSize(2);
      assertThat(history.usage().bytes("user-1")).isPositive().isLessThan(both);

      history.deleteThread("user-1", "thread-b");
      assertThat(history.usage().bytes("user-1")).isZero();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void deletingARunRemovesItsHistoryAndItsShareOfTheQuotaButNotItsNeighbours(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      RunKey next = new RunKey("user-1", "thread-a", "run-thread-a-2");
      history.runs().recordMessage(next, 2, "after", T);
      history.events().append(next, List.of(event("started")));
      long before = history.usage().bytes("user-1");
      history.messageBodies().write("user-1", "thread-a", "body-1", "long");
      history.messageBodies().claim("user-1", "body-1", RUN.run());
      history.runs().recordMessage(RUN, 1, "hello", T);
      history.runs().recordResponse(RUN, "hi");
      history.events().append(RUN, List.of(event("started"), event("runner:1")));
      history.memory().append(RUN, 1, "{}");
      history.diffs().record(RUN, 1, List.of(new StoredDiff("a", "create", "x", null, null)));
      history.answers().record(RUN, answer("call_1", "deny", "no", null), 100);

      history.deleteRun(RUN);

      assertThat(history.runs().find("user-1", RUN.run())).isEmpty();
      assertThat(history.events().all(RUN)).isEmpty();
      assertThat(history.events().lastSeq(RUN)).isZero();
      assertThat(history.memory().read(RUN)).isEmpty();
      assertThat(history.diffs().ofRun(RUN)).isEmpty();
      assertThat(history.messageBodies().read("user-1", "body-1")).isEmpty();
      assertThat(history.answers().of(RUN, "call_1")).isEmpty();
      assertThat(history.runs().ofThread("user-1", "thread-a"))
          .extracting(record -> record.key().run())
          .containsExactly(next.run());
      assertThat(history.events().all(next)).hasSize(1);
      assertThat(history.usage().bytes("user-1")).isEqualTo(before);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aMessageBodyNoRunClaimedIsDeletedWithItsBytesAndAClaimedOneIsKept(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      MessageBodies bodies = history.messageBodies();
      bodies.write("user-1", "thread-a", "claimed", "x".repeat(5000));
      long one = history.usage().bytes("user-1");
      bodies.write("user-1", "thread-a", "refused", "y".repeat(5000));
      bodies.write("user-1", "thread-a", "orphan-1", "z".repeat(5000));
      bodies.write("user-1", "thread-a", "orphan-2", "z".repeat(5000));
      bodies.write("user-2", "thread-b", "orphan-3", "z".repeat(5000));
      bodies.claim("user-1", "claimed", "run-thread-a-1");
      bodies.claim("user-1", "claimed", "run-thread-a-2"); // the first claim wins

      // The Run's creation failed: its body goes at once.
      assertThat(bodies.deleteUnclaimed("user-1", "refused")).isTrue();
      assertThat(bodies.deleteUnclaimed("user-1", "refused")).isFalse();
      assertThat(bodies.deleteUnclaimed("user-1", "claimed")).isFalse();
      assertThat(bodies.read("user-1", "refused")).isEmpty();

      // The sweep: only bodies stored before its bound, in batches.
      assertThat(bodies.removeUnclaimed(Instant.now().minusSeconds(3600), 10)).isZero();
      Instant later = Instant.now().plusSeconds(1);
      assertThat(bodies.removeUnclaimed(later, 2)).isEqualTo(2);
      assertThat(bodies.removeUnclaimed(later, 2)).isEqualTo(1);
      assertThat(bodies.removeUnclaimed(later, 2)).isZero();

      assertThat(bodies.read("user-1", "claimed")).hasValue("x".repeat(5000));
      assertThat(bodies.read("user-1", "orphan-1")).isEmpty();
      assertThat(bodies.read("user-2", "orphan-3")).isEmpty();
      assertThat(history.usage().bytes("user-1")).isEqualTo(one);
      assertThat(history.usage().bytes("user-2")).isZero();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void anAnswerIsRecordedOncePerCallWithItsTextsAndARunHasAtMostItsLimit(Engine engine) {
    try (History history = HistoryEngines.open(engine)) {
      RunAnswers answers = history.answers();
      StoredAnswer first = answer("call_1", "deny", "m".repeat(2048), null);

      assertThat(answers.record(RUN, first, 2)).hasValue(first);
      // A second answer to the same call changes nothing: the first recorded is the answer.
      assertThat(answers.record(RUN, answer("call_1", "approve", null, null), 2)).hasValue(first);
      long one = history.usage().bytes("user-1");
      assertThat(one).isGreaterThan(2048);

      StoredAnswer question = answer("call_2", null, null, "a".repeat(4096));
      assertThat(answers.record(RUN, question, 2)).hasValue(question);
      assertThat(answers.record(RUN, answer("call_3", "approve", null, null), 2)).isEmpty();
      assertThat(answers.record(RUN, first, 2)).hasValue(first); // recorded before the limit

      assertThat(answers.of(RUN, "call_2")).hasValue(question);
      assertThat(answers.of(RUN, "call_3")).isEmpty();
      assertThat(answers.inThread("user-1", "thread-a", "call_1")).hasValue(first);
      assertThat(answers.inThread("user-1", "thread-b", "call_1")).isEmpty();
      assertThat(answers.of(new RunKey("user-2", "thread-a", RUN.run()), "call_1")).isEmpty();
      assertThat(history.usage().bytes("user-1")).isGreaterThan(one + 4096);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void reopeningKeepsEverythingAndMigratesNothingTwice(Engine engine) {
    HistorySettings settings = HistoryEngines.fresh(engine);
    try (History history = History.open(settings)) {
      history.events().append(RUN, List.of(event("started")));
    }
    try (History history = History.open(settings)) {
      assertThat(history.events().all(RUN)).extracting(StoredEvent::key).containsExactly("started");
      assertThat(history.engine()).isEqualTo(engine);
    }
  }

  private static StoredAnswer answer(
      String callId, String decision, String message, String answer) {
    return new StoredAnswer(RUN.run(), callId, decision, message, answer, T);
  }

  private static NewEvent event(String key) {
    return new NewEvent(key, "tool_call", T, "{\"key\":\"" + key + "\"}");
  }
}
