package dev.threadline.api.containers;

import dev.threadline.api.common.McpServerChecks;
import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.environment.ValueSource;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks one MCP server entry with the checks the environments API shares ({@link McpServerChecks}:
 * type, name, timeouts, args), and the container's own wording, url rule and limits. A bearer token
 * is put into {@code tokens} (bound for the container's values Secret) and the spec keeps a
 * reference only.
 */
final class McpServerRules {
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
    McpServer server = McpServerChecks.ofType(field, input.type());
    String name = ContainerRules.text(field + ".name", input.name(), 63, true);
    McpServerChecks.checkName(field, name);
    server.setName(name);
    McpServerChecks.setEnabledAndTimeouts(
        field, server, input.enabled(), input.startupTimeoutSec(), input.toolTimeoutSec());
    if (McpServer.STDIO.equals(input.type())) {
      // Unlike environments (where an empty bearerToken removes the stored one), any is refused.
      if (input.url() != null || input.bearerToken() != null) {
        throw McpServerChecks.stdioGivenUrlOrToken(field);
      }
      server.setCommand(ContainerRules.text(field + ".command", input.command(), 1024, true));
      if (input.args() != null && input.args().size() > MAX_ARGS) {
        throw ApiException.badRequest(field + ".args", "may have at most " + MAX_ARGS + " items");
      }
      server.setArgs(McpServerChecks.arguments(field, input.args()));
      return server;
    }
    McpServerChecks.refuseCommand(field, input.command(), input.args());
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
}
