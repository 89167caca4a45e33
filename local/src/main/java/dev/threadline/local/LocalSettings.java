package dev.threadline.local;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the local mode is started, from environment variables with laptop-friendly defaults.
 *
 * @param apiAddress where the REST API listens ({@code THREADLINE_API_ADDRESS}, default 127.0.0.1)
 * @param apiPort its port ({@code THREADLINE_API_PORT}, default 8080; 0 for any free port)
 * @param kubePort port of the embedded Kubernetes API ({@code THREADLINE_KUBE_PORT}, default 0:
 *     any)
 * @param dataDir workspaces, logs and the kubeconfig ({@code THREADLINE_DATA_DIR}, default
 *     .threadline)
 * @param apiKeys API key to user id ({@code THREADLINE_API_KEYS="keyA=alice,keyB=bob"}); empty
 *     means one user, {@code local}, with a key generated at start-up
 */
public record LocalSettings(
    String apiAddress, int apiPort, int kubePort, Path dataDir, Map<String, String> apiKeys) {
  public static final String DEFAULT_USER = "local";

  public LocalSettings {
    apiKeys = Map.copyOf(apiKeys);
  }

  public static LocalSettings fromEnvironment(Map<String, String> env) {
    return new LocalSettings(
        env.getOrDefault("THREADLINE_API_ADDRESS", "127.0.0.1"),
        port(env, "THREADLINE_API_PORT", 8080),
        port(env, "THREADLINE_KUBE_PORT", 0),
        Path.of(env.getOrDefault("THREADLINE_DATA_DIR", ".threadline")).toAbsolutePath(),
        parseKeys(env.getOrDefault("THREADLINE_API_KEYS", "")));
  }

  /** Parses {@code key=user} pairs separated by commas; a malformed entry names itself. */
  static Map<String, String> parseKeys(String spec) {
    Map<String, String> keys = new LinkedHashMap<>();
    for (String entry : spec.split(",")) {
      if (entry.isBlank()) {
        continue;
      }
      int equals = entry.indexOf('=');
      if (equals <= 0 || equals == entry.length() - 1) {
        throw new IllegalArgumentException(
            "THREADLINE_API_KEYS entries must look like key=user; got an entry of "
                + entry.strip().length()
                + " characters without both parts");
      }
      String key = entry.substring(0, equals).strip();
      String user = entry.substring(equals + 1).strip();
      if (keys.put(key, user) != null) {
        throw new IllegalArgumentException(
            "THREADLINE_API_KEYS names the same key twice (for user " + user + ")");
      }
    }
    return keys;
  }

  private static int port(Map<String, String> env, String name, int fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      int port = Integer.parseInt(value.strip());
      if (port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a port number (0-65535), got: " + value);
    }
  }

  public LocalSettings withPorts(int apiPort, int kubePort) {
    return new LocalSettings(apiAddress, apiPort, kubePort, dataDir, apiKeys);
  }

  public LocalSettings withApiKeys(Map<String, String> keys) {
    return new LocalSettings(apiAddress, apiPort, kubePort, dataDir, keys);
  }

  public LocalSettings withDataDir(Path dir) {
    return new LocalSettings(apiAddress, apiPort, kubePort, dir, apiKeys);
  }
}
