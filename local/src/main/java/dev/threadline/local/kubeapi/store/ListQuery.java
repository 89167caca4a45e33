package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A list as SQL: the key index answers resource, namespace and name; label requirements that need a
 * label ({@code =}, {@code in}, exists) drive the query from the labels index, the others exclude
 * through it; field terms other than name and namespace are checked on each object read.
 */
final class ListQuery {
  /** Where a page starts: after this (namespace, name). */
  record ContinueToken(String namespace, String name) {
    String encode() {
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString((namespace + "\u0000" + name).getBytes(StandardCharsets.UTF_8));
    }

    static ContinueToken decode(String token) {
      if (token == null || token.isEmpty()) {
        return null;
      }
      try {
        String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        int separator = text.indexOf('\u0000');
        if (separator < 0) {
          throw new IllegalArgumentException("invalid continue token");
        }
        return new ContinueToken(text.substring(0, separator), text.substring(separator + 1));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("continue: invalid continue token", e);
      }
    }
  }

  private final Selection selection;
  private final int limit;
  private final ContinueToken after;

  ListQuery(Selection selection, int limit, ContinueToken after) {
    this.selection = selection;
    this.limit = Math.max(0, limit);
    this.after = after;
  }

  ListPage run(Connection connection, long revision) throws SQLException {
    List<Object> parameters = new ArrayList<>();
    String sql = sql(parameters);
    List<ObjectNode> items = new ArrayList<>();
    String next = null;
    try (PreparedStatement select = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.size(); i++) {
        select.setObject(i + 1, parameters.get(i));
      }
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          ObjectNode object = ObjectStore.parse(rs.getString(3));
          if (!selection.fields().matches(object)) {
            continue;
          }
          if (limit > 0 && items.size() == limit) {
            ObjectNode last = items.get(items.size() - 1);
            next =
                new ContinueToken(
                        last.path("metadata").path("namespace").asText(""),
                        last.path("metadata").path("name").asText())
                    .encode();
            break;
          }
          items.add(object);
        }
      }
    }
    return new ListPage(items, revision, next);
  }

  private String sql(List<Object> parameters) {
    List<LabelSelector.Requirement> requirements = selection.labels().requirements();
    LabelSelector.Requirement driver =
        requirements.stream()
            .filter(r ->
                r.operator() == LabelSelector.Operator.IN
                    || r.operator() == LabelSelector.Operator.EXISTS)
            .findFirst()
            .orElse(null);
    StringBuilder sql = new StringBuilder("SELECT o.namespace, o.name, o.body FROM ");
    if (driver != null) {
      // CROSS JOIN keeps the labels index as the outer loop: only labelled objects are read.
      sql.append("labels d CROSS JOIN objects o ON o.id = d.object_id WHERE d.key = ?");
      parameters.add(driver.key());
      if (driver.operator() == LabelSelector.Operator.IN) {
        sql.append(" AND d.value IN (").append(placeholders(driver, parameters)).append(')');
      }
      sql.append(" AND o.resource = ?");
    } else {
      sql.append("objects o WHERE o.resource = ?");
    }
    parameters.add(selection.resource());
    String namespace =
        selection.namespace() != null
            ? selection.namespace()
            : selection.fields().requiredNamespace();
    if (namespace != null) {
      sql.append(" AND o.namespace = ?");
      parameters.add(namespace);
    }
    String name = selection.fields().requiredName();
    if (name != null) {
      sql.append(" AND o.name = ?");
      parameters.add(name);
    }
    for (LabelSelector.Requirement requirement : requirements) {
      if (requirement == driver) {
        continue;
      }
      boolean positive =
          requirement.operator() == LabelSelector.Operator.IN
              || requirement.operator() == LabelSelector.Operator.EXISTS;
      sql.append(positive ? " AND o.id IN" : " AND o.id NOT IN")
          .append(" (SELECT object_id FROM labels WHERE key = ?");
      parameters.add(requirement.key());
      if (!requirement.values().isEmpty()) {
        sql.append(" AND value IN (").append(placeholders(requirement, parameters)).append(')');
      }
      sql.append(')');
    }
    if (after != null) {
      sql.append(" AND (o.namespace, o.name) > (?, ?)");
      parameters.add(after.namespace());
      parameters.add(after.name());
    }
    sql.append(" ORDER BY o.namespace, o.name");
    return sql.toString();
  }

  private static String placeholders(
      LabelSelector.Requirement requirement, List<Object> parameters) {
    parameters.addAll(requirement.values());
    return String.join(", ", java.util.Collections.nCopies(requirement.values().size(), "?"));
  }
}
