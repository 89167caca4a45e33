package dev.threadline.history;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The few JDBC moves the stores make: a statement with parameters, rows mapped to records. */
final class Sql {
  private Sql() {}

  @FunctionalInterface
  interface Row<T> {
    T map(ResultSet row) throws SQLException;
  }

  static int update(Connection connection, String sql, Object... parameters) throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, parameters)) {
      return statement.executeUpdate();
    }
  }

  static <T> List<T> query(Connection connection, String sql, Row<T> row, Object... parameters)
      throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, parameters);
        ResultSet rows = statement.executeQuery()) {
      List<T> found = new ArrayList<>();
      while (rows.next()) {
        found.add(row.map(rows));
      }
      return found;
    }
  }

  /** The one long a query answers (a count, a sum), 0 when it answers no row or null. */
  static long number(Connection connection, String sql, Object... parameters) throws SQLException {
    List<Long> found = query(connection, sql, rows -> rows.getLong(1), parameters);
    return found.isEmpty() ? 0 : found.getFirst();
  }

  private static PreparedStatement prepare(Connection connection, String sql, Object[] parameters)
      throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    for (int i = 0; i < parameters.length; i++) {
      statement.setObject(i + 1, parameters[i]);
    }
    return statement;
  }

  /** What a text costs to keep: its UTF-8 length, counted without encoding it. */
  static long bytes(String text) {
    if (text == null) {
      return 0;
    }
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
