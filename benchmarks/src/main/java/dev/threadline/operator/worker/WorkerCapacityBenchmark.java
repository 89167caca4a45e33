package dev.threadline.operator.worker;

import com.sun.management.OperatingSystemMXBean;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.Role;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import dev.threadline.operator.deltas.Deltas;
import dev.threadline.operator.tracing.AgentTracing;
import dev.threadline.operator.worker.mcp.McpConnections;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker's capacity: many agent loops at once in one JVM, each the real {@link AgentLoop} with
 * the real {@link SandboxCalls}, {@link SandboxClient} (HTTP to the sandbox) and {@link
 * WorkerEvents}, on a virtual thread as the worker runs them. The model is scripted and waits
 * {@code delayMs} per call (two tool calls, then the final answer); the sandbox is an in-process
 * stand-in on loopback that answers {@code POST /calls} at once, one workspace per run credential.
 * What is left out: the writes to the Kubernetes API (the run's events and its memory ConfigMap
 * after every step) — the loop's recorder and event sink only count here.
 *
 * <p>Prints wall time against the floor (calls × delay), the process's peak RSS and CPU time;
 * {@code java ... WorkerCapacityBenchmark [loops] [delayMs]}.
 */
public final class WorkerCapacityBenchmark {
  private static final int MODEL_CALLS = 3;

  private WorkerCapacityBenchmark() {}

  public static void main(String[] args) throws Exception {
    int loops = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    long delayMs = args.length > 1 ? Long.parseLong(args[1]) : 1000;
    try (StandInSandbox sandbox = new StandInSandbox()) {
      SandboxClient client = new SandboxClient();
      round(Math.min(100, loops), delayMs, sandbox, client, "warm-up"); // JIT, classes, sockets
      System.gc();
      long rssBefore = status("VmRSS");
      Round measured = round(loops, delayMs, sandbox, client, "measured");
      long rssPeak = status("VmHWM");
      double floor = MODEL_CALLS * delayMs / 1000.0;
      System.out.printf(
          "%n| loops | model calls × wait | floor s | wall s | wall − floor ms | failed |"
              + " tool calls | events | RSS before MB | peak RSS MB | CPU s |%n"
              + "|---|---|---|---|---|---|---|---|---|---|---|%n"
              + "| %d | %d × %d ms | %.1f | %.2f | %.0f | %d | %d | %d | %.0f | %.0f | %.2f |%n",
          loops,
          MODEL_CALLS,
          delayMs,
          floor,
          measured.wallMs / 1000.0,
          measured.wallMs - floor * 1000,
          measured.failed,
          sandbox.calls.get(),
          measured.events,
          rssBefore / 1024.0,
          rssPeak / 1024.0,
          measured.cpuMs / 1000.0);
      System.out.printf(
          "load average before/after: %s / %s; %d cores, Java %s%n",
          measured.loadBefore,
          loadAverage(),
          Runtime.getRuntime().availableProcessors(),
          Runtime.version());
    }
  }

  private record Round(double wallMs, double cpuMs, int failed, long events, String loadBefore) {}

  private static Round round(
      int loops, long delayMs, StandInSandbox sandbox, SandboxClient client, String label)
      throws Exception {
    sandbox.calls.set(0);
    AtomicLong events = new AtomicLong();
    String load = loadAverage();
    long cpuStart = cpuNanos();
    long start = System.nanoTime();
    List<Future<Optional<AgentLoop.Ended>>> runs = new ArrayList<>();
    try (ExecutorService loopsExecutor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < loops; i++) {
        String run = label + "-" + i;
        runs.add(loopsExecutor.submit(() -> loop(run, delayMs, sandbox, client, events)));
      }
    }
    double wallMs = (System.nanoTime() - start) / 1e6;
    double cpuMs = (cpuNanos() - cpuStart) / 1e6;
    int failed = 0;
    for (Future<Optional<AgentLoop.Ended>> run : runs) {
      Optional<AgentLoop.Ended> ended = run.get();
      if (ended.isEmpty() || !ended.get().outcome().succeeded()) {
        failed++;
      }
    }
    System.out.printf(
        "%s: %d loops in %.0f ms (CPU %.0f ms), %d failed%n", label, loops, wallMs, cpuMs, failed);
    return new Round(wallMs, cpuMs, failed, events.get(), load);
  }

  private static Optional<AgentLoop.Ended> loop(
      String run, long delayMs, StandInSandbox sandbox, SandboxClient client, AtomicLong events)
      throws InterruptedException {
    RunTask task =
        new RunTask(
            "scripted",
            "scripted-model",
            "You are a benchmark.",
            List.of(ChatMessage.user("Write a file and say so.")),
            null,
            List.of(),
            RunTask.Limits.DEFAULT);
    SandboxAddress address = sandbox.address(run);
    WorkerEvents workerEvents =
        new WorkerEvents(event -> events.incrementAndGet(), Clock.systemUTC(), 0);
    long start = System.nanoTime();
    return new AgentLoop(
            task,
            new WaitingModel(delayMs),
            new SandboxCalls(client, address, task.limits()),
            McpConnections.none(),
            workerEvents,
            memory -> {},
            () -> false,
            text -> text,
            usage -> false,
            AgentTracing.off(),
            Deltas.NONE,
            CallApprovals.NONE)
        .run(
            RunMemory.opening(task.opening(), null, 0, Usage.ZERO),
            () -> (System.nanoTime() - start) / 1_000_000);
  }

  /** Two tool calls (a command, then a file write), then the final answer; each call waits. */
  private static final class WaitingModel implements ModelProvider {
    private final long delayMs;

    WaitingModel(long delayMs) {
      this.delayMs = delayMs;
    }

    @Override
    public String name() {
      return "scripted";
    }

    @Override
    public ModelReply complete(ModelRequest request) {
      try {
        Thread.sleep(delayMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      long turns = request.messages().stream().filter(m -> m.role() == Role.ASSISTANT).count();
      Usage usage = new Usage(200, 40, 0);
      return switch ((int) turns) {
        case 0 ->
            new ModelReply(
                "Looking first.",
                List.of(ToolCall.of("c1", "run_command", Map.of("command", "ls"))),
                usage,
                StopReason.TOOL_USE);
        case 1 ->
            new ModelReply(
                "",
                List.of(
                    ToolCall.of(
                        "c2", "write_file", Map.of("path", "notes.txt", "content", "hello\n"))),
                usage,
                StopReason.TOOL_USE);
        default -> new ModelReply("Wrote notes.txt.", List.of(), usage, StopReason.END_TURN);
      };
    }

    @Override
    public void close() {}
  }

  private static long cpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** A field of /proc/self/status in kB (VmRSS now, VmHWM the peak). */
  private static long status(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  private static String loadAverage() throws IOException {
    String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return parts[0] + " " + parts[1] + " " + parts[2];
  }
}
