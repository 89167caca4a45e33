package dev.threadline.operator.computer;

import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The agent's input: run.json and the attachments, one key each, mounted read-only at {@value
 * RunJson#INPUT_DIR}. A Secret rather than a ConfigMap because it carries the user's conversation
 * and files, which deserve the tighter handling Secrets get (RBAC, encryption at rest). Owned by
 * the Run and kept while it exists, so the input of a finished run can be looked at.
 */
public final class RunInputSecret {
  /** Secrets hold at most 1 MiB; keep room for the object's metadata. */
  static final int MAX_BYTES = 1000 * 1024;

  private RunInputSecret() {}

  public static Secret of(Run run, String runJson) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(
        RunJson.FILE, Base64.getEncoder().encodeToString(runJson.getBytes(StandardCharsets.UTF_8)));
    List<Attachment> attachments = inlineAttachments(run);
    long bytes = runJson.length();
    for (int i = 0; i < attachments.size(); i++) {
      String content = attachments.get(i).getContent();
      bytes += content.length() * 3L / 4;
      data.put(key(i), content);
    }
    if (bytes > MAX_BYTES) {
      throw new AgentStartException(
          "The message, history and attachments take "
              + bytes / 1024
              + " KiB; an agent run takes at most "
              + MAX_BYTES / 1024
              + " KiB of input");
    }
    return AgentObjects.immutableSecret(run, AgentObjects.inputSecretName(run))
        .withData(data)
        .build();
  }

  /** What the volume projects: run.json at the top, attachments under {@code attachments/}. */
  public static List<KeyToPath> items(Run run) {
    List<KeyToPath> items = new ArrayList<>();
    items.add(new KeyToPathBuilder().withKey(RunJson.FILE).withPath(RunJson.FILE).build());
    List<Attachment> attachments = inlineAttachments(run);
    for (int i = 0; i < attachments.size(); i++) {
      items.add(
          new KeyToPathBuilder()
              .withKey(key(i))
              .withPath(attachmentPath(attachments.get(i)))
              .build());
    }
    return items;
  }

  /**
   * The attachments given inline. Attachments by URL are not fetched by the operator; a file name
   * with a folder or a dot-only name is refused, since it would escape {@code attachments/}.
   */
  public static List<Attachment> inlineAttachments(Run run) {
    List<Attachment> inline = new ArrayList<>();
    for (Attachment attachment :
        Objects.requireNonNullElse(run.getSpec().getAttachments(), List.<Attachment>of())) {
      if (attachment.getContent() == null || attachment.getContent().isEmpty()) {
        continue;
      }
      String name = attachment.getName();
      if (name == null
          || name.isBlank()
          || name.contains("/")
          || name.contains("\\")
          || name.matches("\\.+")) {
        throw new AgentStartException("Attachment name '" + name + "' must be a plain file name");
      }
      try {
        Base64.getDecoder().decode(attachment.getContent());
      } catch (IllegalArgumentException e) {
        throw new AgentStartException("Attachment " + name + " is not valid base64");
      }
      inline.add(attachment);
    }
    return inline;
  }

  public static String attachmentPath(Attachment attachment) {
    return "attachments/" + attachment.getName();
  }

  private static String key(int index) {
    return "attachment-" + index;
  }
}
