package dev.threadline.api.containers;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.environment.ValueSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks one MCP server entry as the environments API does (stdio needs a command, http an http(s)
 * url; timeouts 1-600 and 1-3600 s, defaults 30 and 60). A bearer token is put into {@code tokens}
 * (bound for the container's values Secret) and the spec keeps a reference only.
 */
final class McpServerRules {
  private static final Pattern NAME = Pattern.compile(EnvironmentValues.MCP_NAME_PATTERN);
  private static final Pattern URL = Pattern.compile(EnvironmentValues.HTTP_URL_PATTERN);
  private static final int MAX_TOKEN = 8192;
  private static final int MAX_ARGS = 100;

  private McpServerRules() {}

  static McpServer check(
      String field,
      ContainerRequests.McpServerInput input,
      String secretName,
      Map<String, String> tokens) {
    if (input == null) {
      throw ApiException.badRequest(field, "is required");
    }
    if (!McpServer.STDIO.equals(input.type()) && !McpServer.HTTP.equals(input.type())) {
      throw ApiException.badRequest(field + ".type", "must be stdio or http");
    }
    McpServer server = new McpServer();
    server.setType(input.type());
    String name = ContainerRules.text(field + ".name", input.name(), 63, true);
    if (!NAME.matcher(name).matches()) {
      throw ApiException.badRequest(
          field + ".name",
          "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'");
    }
    server.setName(name);
    server.setEnabled(input.enabled() == null || input.enabled());
    server.setStartupTimeoutSec(
        seconds(
            field + ".startupTimeoutSec",
            input.startupTimeoutSec(),
            McpServer.DEFAULT_STARTUP_TIMEOUT_SEC,
            McpServer.MAX_STARTUP_TIMEOUT_SEC));
    server.setToolTimeoutSec(
        seconds(
            field + ".toolTimeoutSec",
            input.toolTimeoutSec(),
            McpServer.DEFAULT_TOOL_TIMEOUT_SEC,
            McpServer.MAX_TOOL_TIMEOUT_SEC));
    if (McpServer.STDIO.equals(input.type())) {
      if (input.url() != null || input.bearerToken() != null) {
        throw ApiException.badRequest(
            field, "of type stdio takes command and args, not url or bearerToken");
      }
      server.setCommand(ContainerRules.text(field + ".command", input.command(), 1024, true));
      server.setArgs(arguments(field + ".args", input.args()));
      return server;
    }
    if (input.command() != null || (input.args() != null && !input.args().isEmpty())) {
      throw ApiException.badRequest(
          field, "of type http takes url and bearerToken, not command or args");
    }
    String url = ContainerRules.text(field + ".url", input.url(), 2048, true);
    if (!URL.matcher(url).matches()) {
      throw ApiException.badRequest(field + ".url", "must be an http:// or https:// URL");
    }
    server.setUrl(url);
    server.setArgs(null);
    if (input.bearerToken() != null && !input.bearerToken().isEmpty()) {
      if (input.bearerToken().length() > MAX_TOKEN) {
        throw ApiException.badRequest(
            field + ".bearerToken", "may have at most " + MAX_TOKEN + " characters");
      }
      String key = EnvironmentValues.bearerTokenKey(name);
      tokens.put(key, input.bearerToken());
      server.setBearerTokenFrom(new ValueSource(new SecretKeyReference(secretName, key)));
    }
    return server;
  }

  private static List<String> arguments(String field, List<String> args) {
    if (args == null) {
      return new ArrayList<>();
    }
    if (args.size() > MAX_ARGS) {
      throw ApiException.badRequest(field, "may have at most " + MAX_ARGS + " items");
    }
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i) == null) {
        throw ApiException.badRequest(field + "[" + i + "]", "must be a string");
      }
    }
    return new ArrayList<>(args);
  }

  private static int seconds(String field, Integer value, int fallback, int max) {
    if (value == null) {
      return fallback;
    }
    if (value < 1 || value > max) {
      throw ApiException.badRequest(field, "must be between 1 and " + max);
    }
    return value;
  }
}
