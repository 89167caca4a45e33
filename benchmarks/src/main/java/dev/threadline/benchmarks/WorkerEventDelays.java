package dev.threadline.benchmarks;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.history.History;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * For one streamed computer run: how long each tool call took from the operator's worker recording
 * its event (the event's time, the worker's clock) to the client receiving the SSE item. Item ids
 * end with the run event's seq ({@code tool_<run>-<seq>}), which finds the event in the run's log
 * in the history store.
 */
final class WorkerEventDelays {
  private WorkerEventDelays() {}

  static List<Double> of(History history, String namespace, SseTimings timings) {
    String thread = ResourceIds.toName(timings.threadId).orElseThrow();
    RunKey run = new RunKey(namespace, thread, ThreadRuns.runName(thread, 1));
    List<StoredEvent> events = history.events().all(run);
    List<Double> delays = new ArrayList<>();
    for (Map.Entry<String, Instant> item : timings.toolItemsReceived.entrySet()) {
      long seq = Long.parseLong(item.getKey().substring(item.getKey().lastIndexOf('-') + 1));
      for (StoredEvent event : events) {
        if (event.seq() == seq) {
          Instant written = Timestamps.parse(event.time()).orElseThrow();
          delays.add(Duration.between(written, item.getValue()).toNanos() / 1e6);
        }
      }
    }
    return delays;
  }
}
