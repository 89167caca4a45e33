package dev.threadline.runner.aot;

import dev.threadline.runner.serve.FileApiServer;
import dev.threadline.runner.serve.ServeOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code runner aot-training}: the workload the image build records its AOT cache from (JDK 25,
 * {@code -XX:AOTCacheOutput}; see bin/runner). It serves a scratch workspace exactly as {@code
 * runner serve} does ({@link FileApiServer}) and calls it once for each thing a sandbox is asked —
 * health, snapshot, a command, write, read, edit, list, upload, download, diff, archive — then
 * stops. The JVM then knows the classes a sandbox loads before and while answering its first calls.
 * Any answer that is not a success fails the training (and the image build).
 *
 * <p>The calls use {@link HttpURLConnection} (java.base): the runner's runtime links no HTTP client
 * module.
 */
public final class AotTraining {
  private static final String TOKEN = "aot-training";
  private static final Pattern SNAPSHOT = Pattern.compile("\"snapshot\"\\s*:\\s*\"([^\"]+)\"");

  private final PrintStream err;

  public AotTraining(PrintStream err) {
    this.err = err;
  }

  public int execute(String[] args) {
    if (args.length != 0) {
      err.println("usage: runner aot-training");
      return 2;
    }
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory("threadline-aot-training");
      Path workspace = Files.createDirectories(scratch.resolve("workspace"));
      Path token = Files.writeString(scratch.resolve("token"), TOKEN);
      try (FileApiServer server =
          FileApiServer.start(
              new ServeOptions(
                  workspace, "127.0.0.1", 0, token, ServeOptions.DEFAULT_MAX_UPLOAD_BYTES))) {
        exercise(URI.create("http://127.0.0.1:" + server.port()));
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("the AOT training failed: " + e.getMessage());
      return 1;
    } finally {
      deleteQuietly(scratch);
    }
  }

  private static void exercise(URI base) throws IOException {
    call(base, "GET", "/health", null);
    Matcher snapshot = SNAPSHOT.matcher(call(base, "POST", "/workspace/snapshot", null));
    if (!snapshot.find()) {
      throw new IOException("the snapshot answer names no snapshot");
    }
    tool(base, "tool_1", "run_command", "{\"command\":\"echo hello > a.txt && ls\"}");
    tool(base, "tool_2", "write_file", "{\"path\":\"notes/b.txt\",\"content\":\"one\\ntwo\\n\"}");
    tool(base, "tool_3", "read_file", "{\"path\":\"notes/b.txt\"}");
    tool(
        base,
        "tool_4",
        "edit_file",
        "{\"path\":\"notes/b.txt\",\"old_text\":\"two\",\"new_text\":\"three\"}");
    tool(base, "tool_5", "list_files", "{\"path\":\"notes\"}");
    call(base, "PUT", "/files?path=c.txt", "uploaded\n");
    call(base, "GET", "/files?path=.", null);
    call(base, "GET", "/files/download?path=c.txt", null);
    call(base, "GET", "/calls/tool_1", null);
    call(base, "GET", "/workspace/diff?snapshot=" + snapshot.group(1), null);
    call(base, "GET", "/workspace/archive", null);
  }

  private static void tool(URI base, String id, String tool, String arguments) throws IOException {
    String answer =
        call(
            base,
            "POST",
            "/calls",
            "{\"id\":\""
                + id
                + "\",\"tool\":\""
                + tool
                + "\",\"arguments\":"
                + arguments
                + ",\"limits\":{\"timeoutSeconds\":30,\"outputLimitBytes\":65536}}");
    if (!answer.contains("\"succeeded\":true")) {
      throw new IOException(tool + " did not succeed: " + answer);
    }
  }

  /** One request with the credential; the answer's body, or an exception for a non-2xx. */
  private static String call(URI base, String method, String pathAndQuery, String body)
      throws IOException {
    HttpURLConnection connection =
        (HttpURLConnection) base.resolve(pathAndQuery).toURL().openConnection();
    try {
      connection.setRequestMethod(method);
      connection.setRequestProperty("Authorization", "Bearer " + TOKEN);
      if (body != null) {
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", "application/json");
        try (OutputStream out = connection.getOutputStream()) {
          out.write(body.getBytes(StandardCharsets.UTF_8));
        }
      }
      int status = connection.getResponseCode();
      if (status / 100 != 2) {
        throw new IOException(method + " " + pathAndQuery + " answered " + status);
      }
      try (InputStream in = connection.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } finally {
      connection.disconnect();
    }
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException ignored) {
      // a scratch folder in /tmp; the build goes on
    }
  }
}
