package dev.threadline.runner.serve.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.runner.serve.FileApiException;
import dev.threadline.runner.serve.JsonBody;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How to start a stdio MCP server: {@code {command, args, env}}.
 *
 * @param command the program
 * @param args its arguments
 * @param env variables added to the sandbox's own environment
 */
public record McpServerSpec(String command, List<String> args, Map<String, String> env) {
  public McpServerSpec {
    args = List.copyOf(args);
    env = Map.copyOf(env);
  }

  public static McpServerSpec parse(byte[] body) {
    JsonNode root = JsonBody.object(body, "an MCP server's {command, args, env}");
    JsonNode command = root.get("command");
    if (command == null || !command.isTextual() || command.asText().isBlank()) {
      throw FileApiException.badRequest("command is required and must be a string");
    }
    List<String> args = new ArrayList<>();
    JsonNode argsNode = root.path("args");
    if (!argsNode.isMissingNode() && !argsNode.isNull()) {
      if (!argsNode.isArray()) {
        throw FileApiException.badRequest("args must be an array of strings");
      }
      for (JsonNode arg : argsNode) {
        if (!arg.isTextual()) {
          throw FileApiException.badRequest("args must be an array of strings");
        }
        args.add(arg.asText());
      }
    }
    Map<String, String> env = new LinkedHashMap<>();
    JsonNode envNode = root.path("env");
    if (!envNode.isMissingNode() && !envNode.isNull()) {
      if (!envNode.isObject()) {
        throw FileApiException.badRequest("env must be an object of strings");
      }
      for (Map.Entry<String, JsonNode> variable : envNode.properties()) {
        if (!variable.getValue().isTextual() || variable.getKey().isEmpty()) {
          throw FileApiException.badRequest("env." + variable.getKey() + " must be a string");
        }
        env.put(variable.getKey(), variable.getValue().asText());
      }
    }
    return new McpServerSpec(command.asText(), args, env);
  }
}
