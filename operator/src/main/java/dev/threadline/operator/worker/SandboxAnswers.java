package dev.threadline.operator.worker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * How much of a sandbox's answer the worker reads: a sandbox runs the user's agent code and may
 * answer anything, and one worker serves many runs, so every answer is read no further than a bound
 * chosen for its kind, and one past it is a {@link SandboxException} that says which bound, after
 * reading at most that much (the connection is then dropped).
 */
public final class SandboxAnswers {
  private static final int MIB = 1024 * 1024;

  /**
   * Answers that carry a few fields: snapshot ids, {@code PUT /files}, bind, restore, MCP starts,
   * health proofs, and the {@code {error, message}} of a refusal.
   */
  static final int SMALL_BYTES = 64 * 1024;

  /**
   * {@code GET /workspace/diff}: a snapshot holds up to 64 MiB of file contents
   * (docs/sandbox-api.md).
   */
  static final int DIFF_BYTES = 64 * MIB;

  /**
   * {@code GET /workspace/archive}: far more than a kept archive may hold (900 KiB), so that a
   * large workspace is still seen as too large to keep rather than failing the read.
   */
  static final int ARCHIVE_BYTES = 64 * MIB;

  /**
   * One line of a stdio MCP server's stdout ({@code GET /mcp/{name}/messages}): a JSON-RPC message,
   * a tool's answer at most. The stream itself lasts as long as the server.
   */
  public static final int MCP_LINE_BYTES = 16 * MIB;

  /** The largest {@code outputLimitBytes} the sandbox API takes. */
  static final int MAX_OUTPUT_LIMIT_BYTES = 8 * MIB;

  /**
   * A call's {@code output} lines carry at most 1 Mi characters in all; this leaves room for their
   * JSON framing and escapes.
   */
  static final long CALL_OUTPUT_BYTES = 16L * MIB;

  /** {@code GET /calls/{id}}: a result of a call with the largest output limit. */
  static final int STATE_BYTES = callLineBytes(MAX_OUTPUT_LIMIT_BYTES);

  private SandboxAnswers() {}

  /**
   * One line of a call's answer: the result holds the output and the text for the model, each up to
   * the call's {@code outputLimitBytes}, as escaped JSON — four times the limit and 4 MiB besides.
   */
  static int callLineBytes(int outputLimitBytes) {
    return (int) Math.min(Integer.MAX_VALUE - 8, 4L * MIB + 4L * Math.max(0, outputLimitBytes));
  }

  /** A call's whole answer: its result line and its output lines. */
  static long callStreamBytes(int outputLimitBytes) {
    return callLineBytes(outputLimitBytes) + CALL_OUTPUT_BYTES;
  }

  /**
   * The body of {@code response}, read to at most {@code max} bytes; closed in any case.
   *
   * @throws SandboxException when it is longer, naming {@code what} and the bound
   */
  static byte[] read(String what, HttpResponse<InputStream> response, int max) {
    try (InputStream body = response.body()) {
      OptionalLong declared = response.headers().firstValueAsLong("Content-Length");
      if (declared.isPresent() && declared.getAsLong() > max) {
        throw tooLarge(what, response.statusCode(), max);
      }
      byte[] bytes = body.readNBytes(max + 1);
      if (bytes.length > max) {
        throw tooLarge(what, response.statusCode(), max);
      }
      return bytes;
    } catch (IOException e) {
      throw new SandboxException(
          what + ": the sandbox's answer broke off: " + e.getMessage(), 0, e);
    }
  }

  /** {@link #read} as UTF-8 text. */
  static String text(String what, HttpResponse<InputStream> response, int max) {
    return new String(read(what, response, max), StandardCharsets.UTF_8);
  }

  static SandboxException tooLarge(String what, int status, long max) {
    return new SandboxException(
        what + ": the sandbox's answer is larger than " + describe(max) + ", the most read of it",
        status,
        null);
  }

  static String describe(long bytes) {
    if (bytes % MIB == 0) {
      return bytes / MIB + " MiB";
    }
    if (bytes % 1024 == 0) {
      return bytes / 1024 + " KiB";
    }
    return bytes + " bytes";
  }

  /**
   * The lines of a streamed answer (NDJSON), each at most {@code maxLine} bytes and all together at
   * most {@code maxTotal}; a line longer is refused before it is all read.
   */
  public static final class Lines {
    private final String what;
    private final InputStream in;
    private final int maxLine;
    private final long maxTotal;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;
    private long total;
    private boolean ended;

    public Lines(String what, InputStream in, int maxLine, long maxTotal) {
      this.what = what;
      this.in = in;
      this.maxLine = maxLine;
      this.maxTotal = maxTotal;
    }

    /** The next line without its end ({@code \n} or {@code \r\n}); null at the end. */
    public String next() throws IOException {
      if (ended) {
        return null;
      }
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      while (true) {
        if (position == limit) {
          int read = in.read(buffer);
          if (read < 0) {
            ended = true;
            return line.size() == 0 ? null : decode(line);
          }
          total += read;
          if (total > maxTotal) {
            throw tooLarge(what, 200, maxTotal);
          }
          position = 0;
          limit = read;
        }
        int start = position;
        while (position < limit && buffer[position] != '\n') {
          position++;
        }
        if (line.size() + (position - start) > maxLine) {
          throw new SandboxException(
              what + ": the sandbox answered a line longer than " + describe(maxLine), 200, null);
        }
        line.write(buffer, start, position - start);
        if (position < limit) {
          position++;
          return decode(line);
        }
      }
    }

    private static String decode(ByteArrayOutputStream line) {
      String text = line.toString(StandardCharsets.UTF_8);
      return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }
  }
}
