package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.local.kubelet.sandbox.Confinement;
import dev.threadline.local.kubelet.sandbox.LauncherEnvironment;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Local mode as a boundary, over HTTP: one user's agent, running commands in its sandbox, cannot
 * read another user's workspace, the data folder (kubeconfig included) or the launcher's
 * environment.
 */
class SandboxE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static LocalModeFixture fixture;

  @BeforeAll
  static void start() {
    Confinement confinement = Confinement.detect(System.getenv());
    assumeTrue(
        confinement.available() && confinement.trial().isEmpty(),
        "bubblewrap (bwrap) is not installed or cannot run: local mode runs agents unconfined"
            + " here");
    fixture = LocalModeFixture.start();
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void oneUsersAgentSeesNothingOfAnotherUserTheDataFolderOrTheLauncher() throws Exception {
    Path dataDir = fixture.local().kubeconfig().getParent();
    List<JsonNode> alice =
        commands(LocalModeFixture.ALICE_KEY, "alice", "Run `echo alice-private > mine.txt`");
    assertThat(alice).singleElement().satisfies(tool -> assertThat(exitCode(tool)).isZero());
    Path aliceFile;
    try (Stream<Path> files = Files.walk(dataDir)) {
      aliceFile = files.filter(file -> file.endsWith("mine.txt")).findFirst().orElseThrow();
    }

    List<JsonNode> bob =
        commands(
            LocalModeFixture.BOB_KEY,
            "bob",
            "Run `cat "
                + aliceFile
                + "`, `cat "
                + fixture.local().kubeconfig()
                + "`, `ls "
                + dataDir.resolve("volumes")
                + "` and `cat /proc/[0-9]*/environ | tr '\\0' '\\n'`");

    assertThat(bob).hasSize(4);
    assertThat(exitCode(bob.get(0))).isNotZero();
    assertThat(exitCode(bob.get(1))).isNotZero();
    assertThat(output(bob.get(2))).doesNotContain("alice");
    assertThat(output(bob.get(3))).contains("THREADLINE_LOCAL=1"); // it did read environments
    String seen = String.join("\n", bob.stream().map(SandboxE2ETest::output).toList());
    assertThat(seen).doesNotContain("alice-private", "clusters:", "tl_test_alice");
    LauncherEnvironment.assertNoneIn(seen);
  }

  /** The tool calls of a new thread's first run, posted over HTTP and awaited. */
  private static List<JsonNode> commands(String key, String user, String task) throws Exception {
    HttpResponse<String> response =
        fixture.post(
            key, "/v1/threads", JSON.writeValueAsString(Map.of("task", task, "stream", false)));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    String threadName =
        response.body().replaceAll("(?s).*?\"id\":\"thread_([^\"]+)\".*", "thread-$1");
    Run run =
        fixture
            .local()
            .client()
            .resources(Run.class)
            .inNamespace(fixture.local().namespaces().get(user))
            .withName(ThreadRuns.runName(threadName, 1))
            .get();
    return ComputerPathE2ETest.toolCalls(fixture.local().history(), run);
  }

  private static int exitCode(JsonNode tool) {
    return tool.path("exit_code").asInt();
  }

  private static String output(JsonNode tool) {
    return tool.path("output").asText();
  }
}
