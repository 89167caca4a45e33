package dev.threadline.operator.computer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.model.AgentProfile;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Locale;

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
   * @param history the thread's messages, oldest first, ending with this run's message (as
   *     {@code ConversationHistory} gives them); the last one is the task, not history
   * @param configured the operator's model settings: their base URL applies when the agent uses
   *     the configured provider
   */
  public static String of(Run run, AgentProfile agent, ModelSettings configured, List<ChatMessage> history) {
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
      earlier.addObject().put("role", message.role().name().toLowerCase(Locale.ROOT)).put("content", message.content());
    }
    root.put("message", run.getSpec().getMessage());
    ArrayNode attachments = root.putArray("attachments");
    for (Attachment attachment : RunInputSecret.inlineAttachments(run)) {
      ObjectNode entry = attachments.addObject().put("name", attachment.getName())
          .put("path", INPUT_DIR + "/" + RunInputSecret.attachmentPath(attachment));
      if (attachment.getMediaType() != null) {
        entry.put("mediaType", attachment.getMediaType());
      }
    }
    try {
      return Serialization.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("an ObjectNode always serialises", e);
    }
  }
}
