package dev.threadline.operator.computer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.environment.EnvironmentDocument;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.model.AgentProfile;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The runner's input, {@code run.json} (see runner/README.md): the task, the thread's earlier
 * messages, the agent's model and instructions, and where the attachments are mounted. It never
 * holds a secret: the model key reaches the runner as an environment variable.
 */
public final class RunJson {
  /** Where the input Secret is mounted in the agent Pod. */
  public static final String INPUT_DIR = "/threadline/input";

  public static final String FILE = "run.json";

  private RunJson() {}

  /**
   * @param history the thread's messages, oldest first, ending with this run's message (as {@code
   *     ConversationHistory} gives them); the last one is the task, not history
   * @param configured the operator's model settings: their base URL applies when the agent uses the
   *     configured provider
   * @param environment the Environment's spec (documentation, MCP servers), or null
   */
  public static String of(
      Run run,
      AgentProfile agent,
      ModelSettings configured,
      List<ChatMessage> history,
      EnvironmentSpec environment) {
    ObjectNode root = Serialization.jsonMapper().createObjectNode();
    root.put("runId", ResourceIds.toId(run.getMetadata().getName()));
    root.put("threadId", ResourceIds.toId(run.getSpec().getThread()));
    ObjectNode model = root.putObject("model");
    model.put("provider", agent.provider());
    model.put("model", agent.model());
    if (agent.provider().equals(configured.provider()) && configured.baseUrl() != null) {
      model.put("baseUrl", configured.baseUrl());
    }
    if (agent.instructions() != null && !agent.instructions().isBlank()) {
      root.put("instructions", agent.instructions());
    }
    ArrayNode earlier = root.putArray("history");
    for (ChatMessage message : history.subList(0, Math.max(0, history.size() - 1))) {
      earlier
          .addObject()
          .put("role", message.role().name().toLowerCase(Locale.ROOT))
          .put("content", message.content());
    }
    root.put("message", run.getSpec().getMessage());
    ArrayNode attachments = root.putArray("attachments");
    for (Attachment attachment : RunInputSecret.inlineAttachments(run)) {
      ObjectNode entry =
          attachments
              .addObject()
              .put("name", attachment.getName())
              // Relative to run.json's folder: the runner resolves it, in a Pod or as a local
              // process.
              .put("path", RunInputSecret.attachmentPath(attachment));
      if (attachment.getMediaType() != null) {
        entry.put("mediaType", attachment.getMediaType());
      }
    }
    if (environment != null) {
      documentation(root.putArray("documentation"), environment);
      mcpServers(root.putArray("mcpServers"), environment);
    }
    try {
      return Serialization.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("an ObjectNode always serialises", e);
    }
  }

  /** Inline documents as they are; a linked one as a pointer the agent can follow. */
  private static void documentation(ArrayNode documents, EnvironmentSpec environment) {
    for (EnvironmentDocument document :
        Objects.requireNonNullElse(
            environment.getDocumentation(), List.<EnvironmentDocument>of())) {
      String content =
          document.getContent() != null && !document.getContent().isBlank()
              ? document.getContent()
              : document.getUrl() != null ? "Read it at " + document.getUrl() : null;
      if (content != null) {
        documents
            .addObject()
            .put("title", Objects.requireNonNullElse(document.getTitle(), "Documentation"))
            .put("content", content);
      }
    }
  }

  /** Bearer tokens are named by variable only; their values reach the Pod as secretKeyRefs. */
  private static void mcpServers(ArrayNode servers, EnvironmentSpec environment) {
    List<McpServer> all = EnvironmentValuesEnv.mcpServers(environment);
    for (int i = 0; i < all.size(); i++) {
      McpServer server = all.get(i);
      ObjectNode entry =
          servers.addObject().put("type", server.getType()).put("name", server.getName());
      if (server.getCommand() != null) {
        entry.put("command", server.getCommand());
        ArrayNode args = entry.putArray("args");
        Objects.requireNonNullElse(server.getArgs(), List.<String>of()).forEach(args::add);
      }
      if (server.getUrl() != null) {
        entry.put("url", server.getUrl());
      }
      if (server.getBearerTokenFrom() != null
          && server.getBearerTokenFrom().getSecretKeyRef() != null) {
        entry.put("bearerTokenEnv", EnvironmentValuesEnv.bearerTokenVariable(i));
      }
      entry.put("enabled", !Boolean.FALSE.equals(server.getEnabled()));
      if (server.getStartupTimeoutSec() != null) {
        entry.put("startupTimeoutSec", server.getStartupTimeoutSec());
      }
      if (server.getToolTimeoutSec() != null) {
        entry.put("toolTimeoutSec", server.getToolTimeoutSec());
      }
    }
  }
}
