package dev.threadline.runner.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commands in cgroups of their own, on this host's cgroup v1 pids hierarchy (skipped where the test
 * cannot make a group there): a fork bomb under a limit of 24 is killed whole at its timeout, and
 * the next command runs.
 */
class CommandGroupsTest {
  private static final Path PIDS = Path.of("/sys/fs/cgroup/pids");

  @TempDir Path workspace;
  private Path folder;

  @BeforeEach
  void makeGroup() throws IOException {
    assumeTrue(Files.isWritable(PIDS) && Files.isRegularFile(PIDS.resolve("cgroup.procs")));
    folder = PIDS.resolve("threadline-test-" + UUID.randomUUID());
    try {
      Files.createDirectory(folder);
      Files.writeString(folder.resolve("pids.max"), "24");
    } catch (IOException e) {
      assumeTrue(false, "no cgroup can be made here: " + e);
    }
  }

  @AfterEach
  void removeGroup() throws Exception {
    if (folder != null && Files.isDirectory(folder)) {
      for (int attempt = 0; attempt < 100 && Files.isDirectory(folder); attempt++) {
        try (Stream<Path> children = Files.list(folder)) {
          for (Path child : children.filter(Files::isDirectory).toList()) {
            killAllIn(child);
            Files.deleteIfExists(child);
          }
          Files.deleteIfExists(folder);
        } catch (IOException busy) {
          Thread.sleep(20);
        }
      }
    }
  }

  @Test
  void aForkBombIsKilledWholeAtItsTimeoutAndTheNextCommandRuns() throws Exception {
    CommandGroups groups = CommandGroups.of(Map.of(CommandGroups.VARIABLE, folder.toString()));
    assertThat(groups.enabled()).isTrue();
    CommandTool tool =
        new CommandTool(
            workspace,
            Duration.ofSeconds(3),
            64 * 1024,
            Set.of(),
            Map.of(),
            (bytes, offset, length) -> {},
            groups);

    ToolResult bomb = tool.run(Map.of("command", "f() { f | f & }; f; sleep 30"));

    assertThat(bomb.exitCode()).isNotZero();
    assertThat(processesIn(folder)).isZero();

    ToolResult next = tool.run(Map.of("command", "echo still here; cat /proc/self/cgroup"));
    assertThat(next.exitCode()).isZero();
    assertThat(next.output()).contains("still here").contains(folder.getFileName() + "/cmd-");
    // Each command's group goes once its processes have ended.
    try (Stream<Path> left = Files.list(folder)) {
      assertThat(left.filter(Files::isDirectory).count()).isLessThanOrEqualTo(1);
    }
  }

  @Test
  void withoutTheVariableCommandsRunWhereTheRunnerRuns() {
    assertThat(CommandGroups.of(Map.of()).enabled()).isFalse();
    assertThat(CommandGroups.of(Map.of(CommandGroups.VARIABLE, "/nonexistent/cgroup")).enabled())
        .isFalse();
  }

  /** Processes in the group and all below it. */
  private static long processesIn(Path group) throws IOException {
    long count;
    try (Stream<String> lines = Files.lines(group.resolve("cgroup.procs"))) {
      count = lines.filter(line -> !line.isBlank()).count();
    }
    try (Stream<Path> children = Files.list(group)) {
      for (Path child : children.filter(Files::isDirectory).toList()) {
        count += processesIn(child);
      }
    }
    return count;
  }

  private static void killAllIn(Path group) throws IOException {
    List<String> pids = Files.readAllLines(group.resolve("cgroup.procs"));
    for (String pid : pids) {
      if (!pid.isBlank()) {
        ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }
}
