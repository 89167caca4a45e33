package dev.threadline.runner.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.runner.run.RunInput.Attachment;
import dev.threadline.runner.run.RunInput.Documentation;
import dev.threadline.runner.run.RunInput.HistoryMessage;
import dev.threadline.runner.run.RunInput.Limits;
import dev.threadline.runner.run.RunInput.McpServer;
import dev.threadline.runner.run.RunInput.ModelChoice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * Reads and checks {@code run.json}. Every problem names the field (e.g. {@code mcpServers[1].url})
 * so that whoever wrote the file (the operator) can be fixed from the message alone. Unknown fields
 * are ignored, so a newer operator can add some.
 */
public final class RunInputReader {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9_-]{1,32}");

  private RunInputReader() {}

  public static RunInput read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new InvalidRunInputException("(file)", "cannot read " + file + ": " + e.getMessage());
    }
    return parse(text, file.toAbsolutePath().getParent());
  }

  public static RunInput parse(String json) {
    return parse(json, null);
  }

  /**
   * @param folder where run.json lies: relative attachment paths are resolved against it
   */
  private static RunInput parse(String json, Path folder) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidRunInputException("(document)", "not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new InvalidRunInputException("(document)", "must be a JSON object");
    }
    return new RunInput(
        requiredText(root, "runId"),
        optionalText(root, "threadId", null),
        model(root.get("model")),
        optionalText(root, "instructions", ""),
        list(root, "history", RunInputReader::historyMessage),
        requiredText(root, "message"),
        list(root, "attachments", (node, field) -> attachment(node, field, folder)),
        list(root, "documentation", RunInputReader::documentation),
        uniqueNames(list(root, "mcpServers", RunInputReader::mcpServer)),
        limits(root.get("limits")));
  }

  private static ModelChoice model(JsonNode node) {
    if (node == null || node.isNull()) {
      return new ModelChoice(null, null, null);
    }
    requireObject(node, "model");
    return new ModelChoice(
        optionalText(node, "provider", "model.provider", null),
        optionalText(node, "model", "model.model", null),
        optionalText(node, "baseUrl", "model.baseUrl", null));
  }

  private static HistoryMessage historyMessage(JsonNode node, String field) {
    String role = requiredText(node, "role", field + ".role");
    if (!role.equals("user") && !role.equals("assistant")) {
      throw new InvalidRunInputException(
          field + ".role", "must be 'user' or 'assistant', was '" + role + "'");
    }
    return new HistoryMessage(role, optionalText(node, "content", field + ".content", ""));
  }

  /**
   * A relative path is relative to run.json's folder, so that run.json holds no absolute paths of
   * the Pod's file system (in local mode the runner is a host process and the folder is elsewhere).
   */
  private static Attachment attachment(JsonNode node, String field, Path folder) {
    String name = requiredText(node, "name", field + ".name");
    if (name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..")) {
      throw new InvalidRunInputException(
          field + ".name", "must be a plain file name, was '" + name + "'");
    }
    String path = requiredText(node, "path", field + ".path");
    if (folder != null && !Path.of(path).isAbsolute()) {
      path = folder.resolve(path).toString();
    }
    return new Attachment(name, optionalText(node, "mediaType", field + ".mediaType", null), path);
  }

  private static Documentation documentation(JsonNode node, String field) {
    return new Documentation(
        optionalText(node, "title", field + ".title", ""),
        requiredText(node, "content", field + ".content"));
  }

  private static McpServer mcpServer(JsonNode node, String field) {
    String type = requiredText(node, "type", field + ".type");
    String name = requiredText(node, "name", field + ".name");
    if (!SERVER_NAME.matcher(name).matches()) {
      throw new InvalidRunInputException(
          field + ".name", "must be 1-32 letters, digits, '_' or '-', was '" + name + "'");
    }
    String command = null;
    String url = null;
    switch (type) {
      case McpServer.STDIO -> command = requiredText(node, "command", field + ".command");
      case McpServer.HTTP -> {
        url = requiredText(node, "url", field + ".url");
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
          throw new InvalidRunInputException(field + ".url", "must be an http:// or https:// URL");
        }
      }
      default ->
          throw new InvalidRunInputException(
              field + ".type", "must be 'stdio' or 'http', was '" + type + "'");
    }
    return new McpServer(
        type,
        name,
        command,
        strings(node.get("args"), field + ".args"),
        stringMap(node.get("env"), field + ".env"),
        url,
        optionalText(node, "bearerTokenEnv", field + ".bearerTokenEnv", null),
        optionalBoolean(node, "enabled", field + ".enabled", true),
        positiveInt(node, "startupTimeoutSec", field + ".startupTimeoutSec", 30),
        positiveInt(node, "toolTimeoutSec", field + ".toolTimeoutSec", 60));
  }

  private static List<McpServer> uniqueNames(List<McpServer> servers) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < servers.size(); i++) {
      if (!names.add(servers.get(i).name())) {
        throw new InvalidRunInputException(
            "mcpServers[" + i + "].name",
            "'" + servers.get(i).name() + "' is used by an earlier server");
      }
    }
    return servers;
  }

  private static Limits limits(JsonNode node) {
    Limits defaults = Limits.DEFAULT;
    if (node == null || node.isNull()) {
      return defaults;
    }
    requireObject(node, "limits");
    return new Limits(
        positiveInt(node, "maxTurns", "limits.maxTurns", defaults.maxTurns()),
        positiveInt(
            node, "commandTimeoutSec", "limits.commandTimeoutSec", defaults.commandTimeoutSec()),
        positiveInt(
            node, "outputLimitBytes", "limits.outputLimitBytes", defaults.outputLimitBytes()),
        positiveInt(node, "maxOutputTokens", "limits.maxOutputTokens", defaults.maxOutputTokens()));
  }

  private static <T> List<T> list(
      JsonNode root, String name, BiFunction<JsonNode, String, T> element) {
    JsonNode node = root.get(name);
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw new InvalidRunInputException(name, "must be an array");
    }
    List<T> items = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      String field = name + "[" + i + "]";
      requireObject(node.get(i), field);
      items.add(element.apply(node.get(i), field));
    }
    return items;
  }

  private static List<String> strings(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw new InvalidRunInputException(field, "must be an array of strings");
    }
    List<String> values = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      if (!node.get(i).isTextual()) {
        throw new InvalidRunInputException(field + "[" + i + "]", "must be a string");
      }
      values.add(node.get(i).asText());
    }
    return values;
  }

  private static Map<String, String> stringMap(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return Map.of();
    }
    requireObject(node, field);
    Map<String, String> values = new LinkedHashMap<>();
    for (var entry : node.properties()) {
      if (!entry.getValue().isTextual()) {
        throw new InvalidRunInputException(field + "." + entry.getKey(), "must be a string");
      }
      values.put(entry.getKey(), entry.getValue().asText());
    }
    return values;
  }

  private static void requireObject(JsonNode node, String field) {
    if (!node.isObject()) {
      throw new InvalidRunInputException(field, "must be an object");
    }
  }

  private static String requiredText(JsonNode node, String name) {
    return requiredText(node, name, name);
  }

  private static String requiredText(JsonNode node, String name, String field) {
    String value = optionalText(node, name, field, null);
    if (value == null || value.isBlank()) {
      throw new InvalidRunInputException(field, "is required");
    }
    return value;
  }

  private static String optionalText(JsonNode node, String name, String fallback) {
    return optionalText(node, name, name, fallback);
  }

  private static String optionalText(JsonNode node, String name, String field, String fallback) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isTextual()) {
      throw new InvalidRunInputException(field, "must be a string");
    }
    return value.asText();
  }

  private static boolean optionalBoolean(
      JsonNode node, String name, String field, boolean fallback) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isBoolean()) {
      throw new InvalidRunInputException(field, "must be true or false");
    }
    return value.asBoolean();
  }

  private static int positiveInt(JsonNode node, String name, String field, int fallback) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.canConvertToExactIntegral() || !value.canConvertToInt() || value.asInt() <= 0) {
      throw new InvalidRunInputException(field, "must be a positive whole number");
    }
    return value.asInt();
  }
}
