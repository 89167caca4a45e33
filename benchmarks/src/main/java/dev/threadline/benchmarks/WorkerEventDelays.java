package dev.threadline.benchmarks;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * For one streamed computer run: how long each tool call took from the operator's worker recording
 * its event (the event's time, the worker's clock) to the client receiving the SSE item. Item ids
 * end with the run event's seq ({@code tool_<run>-<seq>}), which finds the event in the Run's log.
 */
final class WorkerEventDelays {
  private WorkerEventDelays() {}

  static List<Double> of(KubernetesClient client, String namespace, SseTimings timings) {
    String runName = ThreadRuns.runName(ResourceIds.toName(timings.threadId).orElseThrow(), 1);
    Run run = client.resources(Run.class).inNamespace(namespace).withName(runName).get();
    List<Double> delays = new ArrayList<>();
    for (Map.Entry<String, Instant> item : timings.toolItemsReceived.entrySet()) {
      long seq = Long.parseLong(item.getKey().substring(item.getKey().lastIndexOf('-') + 1));
      for (RunEvent event : run.getStatus().getEvents()) {
        if (event.getSeq() == seq) {
          Instant written = Timestamps.parse(event.getTime()).orElseThrow();
          delays.add(Duration.between(written, item.getValue()).toNanos() / 1e6);
        }
      }
    }
    return delays;
  }
}
