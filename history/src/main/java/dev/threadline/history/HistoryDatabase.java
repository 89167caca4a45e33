package dev.threadline.history;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The history store's connections: a pool over the configured database, migrated to the current
 * schema by Flyway when opened. SQLite runs in WAL mode with immediate write transactions, so
 * readers never wait for a writer and two writers queue instead of failing on a lock upgrade.
 */
final class HistoryDatabase implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryDatabase.class);

  private final Engine engine;
  private final HikariDataSource pool;

  private HistoryDatabase(Engine engine, HikariDataSource pool) {
    this.engine = engine;
    this.pool = pool;
  }

  static HistoryDatabase open(HistorySettings settings) {
    Engine engine = settings.engine();
    HikariConfig config = new HikariConfig();
    config.setPoolName("history");
    config.setJdbcUrl(settings.url());
    config.setMaximumPoolSize(settings.poolSize());
    config.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
    if (settings.user() != null) {
      config.setUsername(settings.user());
    }
    if (settings.password() != null) {
      config.setPassword(settings.password());
    }
    if (engine == Engine.SQLITE) {
      prepareSqliteFolder(settings.url());
      Properties sqlite = new Properties();
      sqlite.setProperty("journal_mode", "WAL");
      sqlite.setProperty("synchronous", "NORMAL");
      sqlite.setProperty("busy_timeout", "10000");
      sqlite.setProperty("transaction_mode", "IMMEDIATE");
      config.setDataSourceProperties(sqlite);
    }
    HikariDataSource pool = new HikariDataSource(config);
    try {
      migrate(engine, pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    LOG.info("History store: {} ({})", engine.name().toLowerCase(java.util.Locale.ROOT), settings);
    return new HistoryDatabase(engine, pool);
  }

  private static void migrate(Engine engine, DataSource source) {
    Flyway.configure()
        .dataSource(source)
        .locations("classpath:" + engine.migrations())
        .table("history_schema")
        .load()
        .migrate();
  }

  private static void prepareSqliteFolder(String url) {
    String file = url.substring("jdbc:sqlite:".length());
    int query = file.indexOf('?');
    if (query >= 0) {
      file = file.substring(0, query);
    }
    if (file.isEmpty() || file.startsWith(":memory:") || file.startsWith("file:")) {
      return;
    }
    Path parent = Path.of(file).toAbsolutePath().getParent();
    try {
      Files.createDirectories(parent);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot make the history store's folder " + parent, e);
    }
  }

  Engine engine() {
    return engine;
  }

  /** Work on one connection. */
  @FunctionalInterface
  interface Work<T> {
    T apply(Connection connection) throws SQLException;
  }

  /** Runs {@code work} in one transaction: all of it or nothing. */
  <T> T transaction(Work<T> work) {
    try (Connection connection = pool.getConnection()) {
      connection.setAutoCommit(false);
      try {
        T result = work.apply(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new HistoryException(e);
    }
  }

  /** Runs {@code work} outside a transaction (each statement on its own: reads). */
  <T> T read(Work<T> work) {
    try (Connection connection = pool.getConnection()) {
      return work.apply(connection);
    } catch (SQLException e) {
      throw new HistoryException(e);
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
