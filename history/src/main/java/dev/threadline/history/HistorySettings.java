package dev.threadline.history;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where the history store is and how to reach it.
 *
 * @param url a JDBC URL: {@code jdbc:sqlite:<file>} or {@code jdbc:postgresql://host:port/db} (TLS
 *     through the driver's own parameters, e.g. {@code ?sslmode=verify-full})
 * @param user the database user (PostgreSQL), or null
 * @param password the user's password, or null; never logged
 * @param poolSize the most connections this process opens
 */
public record HistorySettings(String url, String user, String password, int poolSize) {
  public static final String URL_VARIABLE = "THREADLINE_HISTORY_URL";
  public static final String USER_VARIABLE = "THREADLINE_HISTORY_USER";
  public static final String PASSWORD_VARIABLE = "THREADLINE_HISTORY_PASSWORD";
  public static final String POOL_SIZE_VARIABLE = "THREADLINE_HISTORY_POOL_SIZE";
  static final int DEFAULT_POOL_SIZE = 10;

  public HistorySettings {
    Engine.of(url);
    if (poolSize < 1) {
      throw new IllegalArgumentException(POOL_SIZE_VARIABLE + " must be at least 1");
    }
  }

  /** An SQLite file (made with its folder when missing). */
  public static HistorySettings sqlite(Path file) {
    return new HistorySettings("jdbc:sqlite:" + file.toAbsolutePath(), null, null, 4);
  }

  public Engine engine() {
    return Engine.of(url);
  }

  /**
   * From {@value #URL_VARIABLE}, {@value #USER_VARIABLE}, {@value #PASSWORD_VARIABLE} and {@value
   * #POOL_SIZE_VARIABLE}; without a URL, the SQLite file {@code fallback}.
   */
  public static HistorySettings fromEnvironment(Map<String, String> environment, Path fallback) {
    String url = blankToNull(environment.get(URL_VARIABLE));
    if (url == null) {
      Objects.requireNonNull(fallback, URL_VARIABLE + " is required");
      return sqlite(fallback);
    }
    String poolSize = blankToNull(environment.get(POOL_SIZE_VARIABLE));
    int pool;
    try {
      pool = poolSize == null ? DEFAULT_POOL_SIZE : Integer.parseInt(poolSize);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(POOL_SIZE_VARIABLE + " must be a number, not " + poolSize);
    }
    return new HistorySettings(
        url,
        blankToNull(environment.get(USER_VARIABLE)),
        blankToNull(environment.get(PASSWORD_VARIABLE)),
        pool);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  /** Without the password, nor the URL's parameters (which may carry one). */
  @Override
  public String toString() {
    int query = url.indexOf('?');
    String shown = query < 0 ? url : url.substring(0, query) + "?…";
    return "HistorySettings[url=" + shown + ", user=" + user + ", poolSize=" + poolSize + "]";
  }
}
