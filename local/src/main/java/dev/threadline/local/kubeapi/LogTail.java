package dev.threadline.local.kubeapi;

import java.util.Arrays;

/** {@code tailLines}: the last lines of a log, where a final newline ends a line. */
final class LogTail {
  private LogTail() {}

  static byte[] lastLines(byte[] log, Long lines) {
    if (lines == null || lines < 0) {
      return log;
    }
    if (lines == 0) {
      return new byte[0];
    }
    int end = log.length;
    int scanFrom = end > 0 && log[end - 1] == '\n' ? end - 2 : end - 1;
    long seen = 0;
    for (int i = scanFrom; i >= 0; i--) {
      if (log[i] == '\n' && ++seen == lines) {
        return Arrays.copyOfRange(log, i + 1, end);
      }
    }
    return log;
  }
}
