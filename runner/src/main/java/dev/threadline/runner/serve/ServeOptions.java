package dev.threadline.runner.serve;

import java.nio.file.Path;
import java.util.List;

/**
 * The options of {@code runner serve}.
 *
 * @param workspace the folder the file API serves (every path is confined to it)
 * @param address the address to listen on; {@code 0.0.0.0} in a Pod, {@code 127.0.0.1} on a shared
 *     host
 * @param port the port to listen on; 0 picks a free one
 * @param tokenFile a file with the credential callers must send (this or {@code bindTokenFile} is
 *     required: the sandbox runs commands)
 * @param maxUploadBytes the largest body an upload may have
 * @param bindTokenFile for a warm-pool sandbox: a file with the pool's credential, which opens only
 *     the one {@code POST /bind} that installs a run's credential
 */
public record ServeOptions(
    Path workspace,
    String address,
    int port,
    Path tokenFile,
    long maxUploadBytes,
    Path bindTokenFile) {
  /** 10 MiB: uploads are whole files held by the api-server on their way through. */
  public static final long DEFAULT_MAX_UPLOAD_BYTES = 10L * 1024 * 1024;

  static final String USAGE =
      "usage: runner serve --workspace <dir> --port <n> (--token-file <file> | --bind-token-file"
          + " <file>) [--address <ip>] [--max-upload-bytes <n>]";

  public ServeOptions {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be between 0 and 65535, got " + port);
    }
    if (maxUploadBytes < 1) {
      throw new IllegalArgumentException("--max-upload-bytes must be positive");
    }
    if (tokenFile != null && bindTokenFile != null) {
      throw new IllegalArgumentException("give --token-file or --bind-token-file, not both");
    }
  }

  public ServeOptions(
      Path workspace, String address, int port, Path tokenFile, long maxUploadBytes) {
    this(workspace, address, port, tokenFile, maxUploadBytes, null);
  }

  static ServeOptions parse(List<String> args) {
    Path workspace = null;
    String address = "0.0.0.0";
    Integer port = null;
    Path tokenFile = null;
    Path bindTokenFile = null;
    long maxUpload = DEFAULT_MAX_UPLOAD_BYTES;
    for (int i = 0; i < args.size(); i++) {
      String option = args.get(i);
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = args.get(++i);
      switch (option) {
        case "--workspace" -> workspace = Path.of(value);
        case "--address" -> address = value;
        case "--port" -> port = number(option, value);
        case "--token-file" -> tokenFile = Path.of(value);
        case "--bind-token-file" -> bindTokenFile = Path.of(value);
        case "--max-upload-bytes" -> maxUpload = number(option, value);
        default -> throw new IllegalArgumentException("unknown option " + option);
      }
    }
    if (workspace == null || port == null || (tokenFile == null && bindTokenFile == null)) {
      throw new IllegalArgumentException(
          "--workspace, --port and --token-file (or --bind-token-file) are required");
    }
    return new ServeOptions(workspace, address, port, tokenFile, maxUpload, bindTokenFile);
  }

  private static int number(String option, String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be a whole number, got " + value);
    }
  }
}
