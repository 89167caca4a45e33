package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One user's hostile commands meet their sandbox's limits while the other user's direct answers go
 * on: a fork bomb, a memory hog and a disk fill, each bounded itself (a fixed number of forks, 700
 * MB, 200 MB) so that a limit that fails cannot take down the machine the tests share. The other
 * user's latency is reported next to its quiet median and asserted only loosely (a shared machine's
 * timing is no test).
 */
class SandboxLimitsE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PIDS = 96;
  private static final Duration RUN_TIME = Duration.ofSeconds(120);
  private static LocalModeFixture fixture;
  private static long quietMedianMillis;

  @BeforeAll
  static void start() throws Exception {
    fixture =
        LocalModeFixture.start(
            Map.of(
                "THREADLINE_AGENT_MEMORY_LIMIT", "384Mi",
                "THREADLINE_LOCAL_POD_PIDS_LIMIT", Integer.toString(PIDS),
                "THREADLINE_WORKSPACE_SIZE", "24Mi"),
            UnaryOperator.identity());
    directAnswers(3); // the JIT's first pass, not measured
    quietMedianMillis = median(directAnswers(10));
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void aForkBombStopsAtTheCommandsProcessLimitAndTheRunnerAnswersTheNextCall() throws Exception {
    String bomb = "i=0; while [ $i -lt 400 ]; do sleep 3 & i=$((i+1)); echo started $i; done";
    Run run = hostileRun("forks", "Run `" + bomb + "` and then `echo still here`");
    List<JsonNode> tools = ComputerPathE2ETest.toolCalls(fixture.local().history(), run);
    JsonNode forks = call(tools, bomb, run);
    JsonNode next = call(tools, "echo still here", run);

    assertThat(forks.path("exit_code").asInt()).as(forks.toString()).isNotZero();
    String output = forks.path("output").asText();
    int started = lastStarted(output);
    // Commands have the sandbox's limit less the runner's headroom (half of it, here).
    assertThat(started).as(output).isBetween(1, PIDS / 2);
    // The runner kept processes and threads of its own: the next call ran, long before the
    // deadline.
    assertThat(next.path("exit_code").asInt()).as(next.toString()).isZero();
    assertThat(next.path("output").asText()).contains("still here");
    assertThat(run.getStatus().getPhase()).isEqualTo("completed");
  }

  @Test
  void agentCodeCannotRaiseItsProcessLimitFromInsideTheCommandsCgroup() throws Exception {
    // Everything a command can reach of cgroups: the commands' group, mounted at its host path.
    String escape =
        "G=$THREADLINE_COMMAND_CGROUP; echo 100000 > $G/pids.max; echo raise-exit=$?;"
            + " cat $G/../pids.max; echo parent-exit=$?; mkdir $G/mine && echo max >"
            + " $G/mine/pids.max && sh -c 'echo $$ > '$G'/mine/cgroup.procs; i=0; while [ $i -lt"
            + " 200 ]; do sleep 3 & i=$((i+1)); echo started $i; done'; echo mine-exit=$?";
    JsonNode tool = hostile("escape", escape);
    String output = tool.path("output").asText();

    assertThat(output)
        .as("the commands' limit is read-only, the sandbox's own out of sight")
        .contains("Read-only file system", "raise-exit=2")
        .doesNotContain("parent-exit=0");
    // A group of its own with no limit of its own is still held by the groups above it.
    assertThat(lastStarted(output)).as(output).isBetween(1, PIDS / 2);
  }

  @Test
  void aMemoryHogIsKilledAtTheMemoryLimit() throws Exception {
    JsonNode tool = hostile("hog", "head -c 700000000 /dev/zero | tail -n 1 > /dev/null");

    assertThat(tool.path("exit_code").asInt()).as(tool.toString()).isEqualTo(137);
  }

  @Test
  void aDiskFillEndsTheRunOnceTheWorkspaceIsFull() throws Exception {
    Run run =
        hostileRun(
            "fill",
            "Run `for i in $(seq 200); do head -c 1000000 /dev/zero > f$i; sleep 0.05; done; echo"
                + " done`");

    // The Pod is evicted as a cluster's kubelet would: the run fails, its sandbox gone, and says
    // why in the eviction's words (not the broken call's).
    assertThat(run.getStatus().getPhase())
        .as(String.valueOf(run.getStatus().getError()))
        .isEqualTo("failed");
    String message = run.getStatus().getError().getMessage();
    assertThat(message).contains("Evicted").contains("exceeds").doesNotContain("broke off");
  }

  /** The last {@code started N} a forking command printed. */
  private static int lastStarted(String output) {
    java.util.regex.Matcher line =
        java.util.regex.Pattern.compile("started (\\d+)").matcher(output);
    int started = 0;
    while (line.find()) {
      started = Integer.parseInt(line.group(1));
    }
    return started;
  }

  /** Runs {@code command} as alice while bob asks; returns the command's tool call. */
  private static JsonNode hostile(String name, String command) throws Exception {
    Run run = hostileRun(name, "Run `" + command + "`");
    return call(ComputerPathE2ETest.toolCalls(fixture.local().history(), run), command, run);
  }

  private static JsonNode call(List<JsonNode> tools, String command, Run run) {
    return tools.stream()
        .filter(tool -> command.equals(tool.path("command").asText()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no tool call of " + command + ": " + run));
  }

  /** The run of alice's {@code task} (its commands in backticks), made while bob asks. */
  private static Run hostileRun(String name, String taskText) throws Exception {
    String task = JSON.writeValueAsString(taskText);
    CompletableFuture<HttpResponse<String>> alice =
        CompletableFuture.supplyAsync(() ->
            fixture.send(
                fixture
                    .request(LocalModeFixture.ALICE_KEY, "/v1/threads")
                    .timeout(RUN_TIME)
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"task\":" + task + ",\"stream\":false}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString()));
    List<Long> during = new ArrayList<>();
    // Paced, and at most 400: bob's threads count against his limit (2000) too.
    while ((!alice.isDone() || during.size() < 5) && during.size() < 400) {
      during.addAll(directAnswers(1));
      Thread.sleep(250);
    }
    long median = median(during);
    System.out.printf(
        "bob's direct answers while alice's %s ran: median %d ms (quiet: %d ms), max %d ms, %d"
            + " answers%n",
        name,
        median,
        quietMedianMillis,
        during.stream().mapToLong(l -> l).max().orElse(0),
        during.size());
    // Loose on purpose: the claim is 2×; the machine is shared with other test runs.
    assertThat(median).isLessThanOrEqualTo(3 * quietMedianMillis + 1000);
    HttpResponse<String> response = alice.get();
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
    String thread = JSON.readTree(response.body()).at("/thread/id").asText();
    return fixture
        .local()
        .client()
        .resources(Run.class)
        .inNamespace("alice")
        .withName(ThreadRuns.runName(ResourceIds.toName(thread).orElseThrow(), 1))
        .get();
  }

  /** Bob's direct answers, one after another: the latency of each, all of them answered. */
  private static List<Long> directAnswers(int count) throws Exception {
    List<Long> latencies = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long start = System.nanoTime();
      HttpResponse<String> response =
          fixture.post(
              LocalModeFixture.BOB_KEY,
              "/v1/threads",
              "{\"messages\":[{\"role\":\"user\",\"content\":\"What is 2 + 2?\"}],"
                  + "\"stream\":false}");
      latencies.add((System.nanoTime() - start) / 1_000_000);
      assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
      assertThat(JSON.readTree(response.body()).at("/execution/success").asBoolean())
          .as(response.body())
          .isTrue();
    }
    return latencies;
  }

  private static long median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }
}
