package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TypeScript client generated from the OpenAPI document ({@code clients/typescript}, its npm
 * dependencies installed by {@code .ci/setup} from its lock file) runs its own tests with {@code
 * node --test} against the local mode: a direct and a computer run through the streaming helper,
 * each stream dropped mid-run and resumed with {@code Last-Event-ID}, typed reads and refusals; and
 * beside them the OpenAPI linter ({@code @redocly/cli}) on the document, the committed types
 * against a fresh generation, and a type check of the client.
 */
class TypeScriptClientE2ETest {
  private static final Path CLIENT =
      Path.of("..", "clients", "typescript").toAbsolutePath().normalize();

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void theGeneratedClientPassesItsTestsAgainstTheLocalMode() throws Exception {
    Assumptions.assumeTrue(
        Files.isDirectory(CLIENT.resolve("node_modules/openapi-fetch")),
        "the TypeScript client's npm dependencies are not installed (run .ci/setup)");

    ProcessBuilder node = new ProcessBuilder("node", "--test", "test/").directory(CLIENT.toFile());
    node.environment().put("THREADLINE_URL", fixture.local().apiUrl());
    node.environment().put("THREADLINE_KEY", LocalModeFixture.ALICE_KEY);
    File output = Files.createTempFile("typescript-client", ".tap").toFile();
    node.redirectErrorStream(true).redirectOutput(output);
    Process process = node.start();
    boolean ended = process.waitFor(5, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly();
    }
    String report = Files.readString(output.toPath());
    assertThat(ended).as(report).isTrue();
    assertThat(process.exitValue()).as(report).isZero();
    // Every test ran: none skipped for want of the local mode.
    assertThat(report).as(report).contains("# pass 6").contains("# fail 0").contains("# skipped 0");
  }
}
