package dev.threadline.operator.computer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventCodec;
import dev.threadline.core.events.RunnerEventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays agent Pods' logs for tests: a test writes the runner's lines; every follower gets the log
 * from its first line and then each new line as it is written, on its own thread, like the API
 * server's {@code follow=true}.
 */
final class ScriptedPodLogs implements PodLogFollower {
  private final Map<String, PodLog> logs = new ConcurrentHashMap<>();

  PodLog log(String namespace, String pod) {
    return logs.computeIfAbsent(namespace + "/" + pod, key -> new PodLog());
  }

  @Override
  public Following follow(String namespace, String pod, String container, Listener listener) {
    return log(namespace, pod).subscribe(listener);
  }

  static final class PodLog {
    private final List<String> lines = new ArrayList<>();
    private final List<LinkedBlockingQueue<Optional<String>>> readers = new ArrayList<>();
    private final AtomicInteger follows = new AtomicInteger();
    private boolean ended;
    private long seq;

    /** Writes one protocol line, numbered as the runner numbers them. */
    PodLog emit(RunnerEventType type, ObjectNode data) {
      synchronized (this) {
        seq++;
        return line(RunnerEventCodec.encode(new RunnerEvent(seq, Instant.now(), type, data)));
      }
    }

    synchronized PodLog line(String line) {
      lines.add(line);
      readers.forEach(reader -> reader.add(Optional.of(line)));
      return this;
    }

    /** The container stopped: every follower reaches the end of the log. */
    synchronized void end() {
      ended = true;
      readers.forEach(reader -> reader.add(Optional.empty()));
    }

    int follows() {
      return follows.get();
    }

    private synchronized Following subscribe(Listener listener) {
      follows.incrementAndGet();
      LinkedBlockingQueue<Optional<String>> queue = new LinkedBlockingQueue<>();
      lines.forEach(line -> queue.add(Optional.of(line)));
      if (ended) {
        queue.add(Optional.empty());
      }
      readers.add(queue);
      Thread reader =
          Thread.ofVirtual()
              .start(() -> {
                try {
                  for (Optional<String> next = queue.take();
                      next.isPresent();
                      next = queue.take()) {
                    listener.line(next.get());
                  }
                  listener.ended(null);
                } catch (InterruptedException closed) {
                  Thread.currentThread().interrupt();
                }
              });
      return () -> {
        synchronized (this) {
          readers.remove(queue);
        }
        reader.interrupt();
      };
    }
  }
}
