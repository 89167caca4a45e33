package dev.threadline.runner.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commands in cgroups of their own, where the sandbox gives the runner a folder for them ({@value
 * #VARIABLE}: a cgroup of the sandbox's with a lower process limit than the sandbox, so the runner
 * keeps processes and threads of its own when its commands use all theirs). Each command gets a
 * group below that folder: the runner kills every process in it at a timeout or a cancel, which a
 * fork bomb cannot outrun the way it outruns a walk of the process tree. Without the folder (a
 * cluster's Pod, a host without cgroups) commands run in the runner's own bounds.
 */
public final class CommandGroups {
  /** The folder (a cgroup, v1 or v2) in which the runner may make one group per command. */
  public static final String VARIABLE = "THREADLINE_COMMAND_CGROUP";

  /** Joins the group whose {@code cgroup.procs} is {@code $1}, then runs the command {@code $2}. */
  private static final String JOIN =
      "echo $$ > \"$1\" || { echo 'cannot enter the command cgroup' >&2; exit 125; }; "
          + "exec /bin/sh -c \"$2\"";

  private static final int KILL_ROUNDS = 200;
  private static final Logger log = LoggerFactory.getLogger(CommandGroups.class);
  private static final CommandGroups NONE = new CommandGroups(null);

  private final Path folder;
  private final AtomicLong next = new AtomicLong();

  /** Groups whose command ended while processes it started still ran: removed once they end. */
  private final Set<Path> lingering = ConcurrentHashMap.newKeySet();

  private CommandGroups(Path folder) {
    this.folder = folder;
  }

  /** No groups: commands run where the runner runs. */
  public static CommandGroups none() {
    return NONE;
  }

  /**
   * The groups {@code environment}'s {@value #VARIABLE} names, if the runner can make a group
   * there; else none (said in the log).
   */
  public static CommandGroups of(Map<String, String> environment) {
    String value = environment.get(VARIABLE);
    if (value == null || value.isBlank()) {
      return NONE;
    }
    CommandGroups groups = new CommandGroups(Path.of(value));
    try {
      Path probe =
          Files.createDirectory(groups.folder.resolve("probe-" + ProcessHandle.current().pid()));
      Files.delete(probe);
      log.info("Commands run in cgroups of their own under {}", groups.folder);
      return groups;
    } catch (IOException | RuntimeException e) {
      log.warn(
          "Commands share the runner's cgroup: cannot make one in {} ({})", value, e.toString());
      return NONE;
    }
  }

  /** Whether commands get groups of their own. */
  public boolean enabled() {
    return folder != null;
  }

  /** A new group for one command; empty without groups. */
  Optional<Group> open() throws IOException {
    if (folder == null) {
      return Optional.empty();
    }
    lingering.removeIf(CommandGroups::removeIfEmpty);
    while (true) {
      Path dir = folder.resolve("cmd-" + next.incrementAndGet());
      if (!Files.exists(dir)) {
        return Optional.of(new Group(Files.createDirectory(dir)));
      }
    }
  }

  /** One command's cgroup. */
  final class Group {
    private final Path dir;

    private Group(Path dir) {
      this.dir = dir;
    }

    /** The command line that runs {@code shellCommand} with {@code /bin/sh -c} in this group. */
    List<String> command(String shellCommand) {
      return List.of(
          "/bin/sh", "-c", JOIN, "sh", dir.resolve("cgroup.procs").toString(), shellCommand);
    }

    /**
     * Kills every process in the group, round after round until none is left (a process may fork
     * between a round's read and its kill), at most {@value #KILL_ROUNDS} rounds (about a second).
     */
    void killAll() {
      for (int round = 0; round < KILL_ROUNDS; round++) {
        List<String> pids;
        try {
          pids = Files.readAllLines(dir.resolve("cgroup.procs"));
        } catch (IOException | RuntimeException gone) {
          return;
        }
        if (pids.stream().allMatch(String::isBlank)) {
          return;
        }
        for (String pid : pids) {
          if (!pid.isBlank()) {
            ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
          }
        }
        try {
          Thread.sleep(5); // the killed leave the group as they exit
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      log.warn("Processes still run in {} after {} rounds of kills", dir, KILL_ROUNDS);
    }

    /**
     * Removes the group once its command is done; while processes it started go on (a server
     * started in the background), it stays and is removed when they have ended.
     */
    void close() {
      if (!removeIfEmpty(dir)) {
        lingering.add(dir);
      }
    }
  }

  private static boolean removeIfEmpty(Path dir) {
    try {
      Files.deleteIfExists(dir); // a cgroup with processes refuses (EBUSY)
      return true;
    } catch (IOException busy) {
      return false;
    }
  }
}
