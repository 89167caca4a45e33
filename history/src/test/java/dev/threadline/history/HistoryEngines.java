package dev.threadline.history;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Real databases for tests: an SQLite file, or a database of its own on one PostgreSQL server per
 * test JVM (real PostgreSQL binaries from Maven Central, started on a free loopback port and
 * stopped when the JVM exits). Never a mock.
 */
public final class HistoryEngines {
  private static EmbeddedPostgres postgres;

  private HistoryEngines() {}

  /** Both engines, for {@code @ParameterizedTest @MethodSource}. */
  public static Stream<Engine> both() {
    return Stream.of(Engine.SQLITE, Engine.POSTGRESQL);
  }

  /** Settings of a new, empty database on {@code engine}. */
  public static HistorySettings fresh(Engine engine) {
    return switch (engine) {
      case SQLITE -> HistorySettings.sqlite(temporaryFolder().resolve("history.db"));
      case POSTGRESQL -> freshPostgres();
    };
  }

  /** A new, empty store on {@code engine}. */
  public static History open(Engine engine) {
    return History.open(fresh(engine));
  }

  /**
   * What a process reads a new, empty database on {@code engine} from ({@link
   * HistorySettings#fromEnvironment}): {@code THREADLINE_HISTORY_URL}, {@code _USER} and {@code
   * _PASSWORD} when set; its pool keeps the process's default size. E.g. to start the local mode on
   * PostgreSQL.
   */
  public static Map<String, String> variables(Engine engine) {
    HistorySettings settings = fresh(engine);
    Map<String, String> variables = new HashMap<>();
    variables.put(HistorySettings.URL_VARIABLE, settings.url());
    if (settings.user() != null) {
      variables.put(HistorySettings.USER_VARIABLE, settings.user());
    }
    if (settings.password() != null) {
      variables.put(HistorySettings.PASSWORD_VARIABLE, settings.password());
    }
    return Map.copyOf(variables);
  }

  private static HistorySettings freshPostgres() {
    EmbeddedPostgres server = postgres();
    String database = "history_" + UUID.randomUUID().toString().replace("-", "");
    try (Connection connection = server.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + database);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a test database", e);
    }
    return new HistorySettings(server.getJdbcUrl("postgres", database), "postgres", null, 4);
  }

  private static synchronized EmbeddedPostgres postgres() {
    if (postgres == null) {
      try {
        postgres = EmbeddedPostgres.builder().start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the test PostgreSQL server", e);
      }
      EmbeddedPostgres started = postgres;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(() -> {
                try {
                  started.close();
                } catch (IOException ignored) {
                  // The JVM exits: the server's folder is a temporary one.
                }
              }));
    }
    return postgres;
  }

  private static Path temporaryFolder() {
    try {
      Path folder = Files.createTempDirectory("threadline-history");
      folder.toFile().deleteOnExit();
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
