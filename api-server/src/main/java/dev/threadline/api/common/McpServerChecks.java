package dev.threadline.api.common;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.McpServer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The checks of one MCP server entry that the environments and containers APIs share, each with the
 * same 400 (field and message). What differs between them stays with each API: the order of the
 * checks, the length messages, the url rule, duplicate names and where a bearer token goes. Every
 * {@code field} is the entry's own ({@code mcpServers[0]}); the checks name its sub-fields.
 */
public final class McpServerChecks {
  private static final Pattern NAME = Pattern.compile(EnvironmentValues.MCP_NAME_PATTERN);

  /** One argument: a path, a flag, a URL; the whole server entry stays far below etcd's limit. */
  public static final int MAX_ARG_LENGTH = 4096;

  private McpServerChecks() {}

  /** A new server of {@code type}, which must be stdio or http. */
  public static McpServer ofType(String field, String type) {
    if (!McpServer.STDIO.equals(type) && !McpServer.HTTP.equals(type)) {
      throw ApiException.badRequest(field + ".type", "must be stdio or http");
    }
    McpServer server = new McpServer();
    server.setType(type);
    return server;
  }

  /** Refuses a {@code name} (present and within length already) not of the MCP name form. */
  public static void checkName(String field, String name) {
    if (!NAME.matcher(name).matches()) {
      throw ApiException.badRequest(
          field + ".name",
          "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'");
    }
  }

  /** Sets enabled (default true) and the startup and tool timeouts (defaults 30 and 60 s). */
  public static void setEnabledAndTimeouts(
      String field,
      McpServer server,
      Boolean enabled,
      Integer startupTimeoutSec,
      Integer toolTimeoutSec) {
    server.setEnabled(enabled == null || enabled);
    server.setStartupTimeoutSec(
        seconds(
            field + ".startupTimeoutSec",
            startupTimeoutSec,
            McpServer.DEFAULT_STARTUP_TIMEOUT_SEC,
            McpServer.MAX_STARTUP_TIMEOUT_SEC));
    server.setToolTimeoutSec(
        seconds(
            field + ".toolTimeoutSec",
            toolTimeoutSec,
            McpServer.DEFAULT_TOOL_TIMEOUT_SEC,
            McpServer.MAX_TOOL_TIMEOUT_SEC));
  }

  /** A stdio server's args, as a mutable copy: none when absent, no null or overlong item. */
  public static List<String> arguments(String field, List<String> args) {
    if (args == null) {
      return new ArrayList<>();
    }
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i) == null) {
        throw ApiException.badRequest(field + ".args[" + i + "]", "must be a string");
      }
      if (args.get(i).length() > MAX_ARG_LENGTH) {
        throw ApiException.badRequest(
            field + ".args[" + i + "]", "may have at most " + MAX_ARG_LENGTH + " characters");
      }
    }
    return new ArrayList<>(args);
  }

  /** The refusal of a stdio server given a url or bearer token (what counts as given differs). */
  public static ApiException stdioGivenUrlOrToken(String field) {
    return ApiException.badRequest(
        field, "of type stdio takes command and args, not url or bearerToken");
  }

  /** Refuses an http server given a command or args. */
  public static void refuseCommand(String field, String command, List<String> args) {
    if (command != null || (args != null && !args.isEmpty())) {
      throw ApiException.badRequest(
          field, "of type http takes url and bearerToken, not command or args");
    }
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
