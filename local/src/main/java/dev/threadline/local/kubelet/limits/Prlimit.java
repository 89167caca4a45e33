package dev.threadline.local.kubelet.limits;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * util-linux's {@code prlimit}: starts a command with resource limits (soft and hard alike, so the
 * command cannot raise them). They are inherited by every process the command starts.
 */
record Prlimit(Path program) {
  /**
   * {@code command} behind {@code prlimit}, with each nonzero limit of {@code limits} (option name
   * without dashes, e.g. {@code fsize}, → value).
   */
  List<String> wrap(Map<String, Long> limits, List<String> command) {
    List<String> line = new ArrayList<>();
    line.add(program.toString());
    limits.forEach((option, value) -> {
      if (value != null && value > 0) {
        line.add("--" + option + "=" + value + ":" + value);
      }
    });
    if (line.size() == 1) {
      return command;
    }
    line.add("--");
    line.addAll(command);
    return line;
  }
}
