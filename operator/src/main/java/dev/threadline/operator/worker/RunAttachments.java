package dev.threadline.operator.worker;

import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/** A run's attachments as the worker places them in the sandbox's workspace. */
final class RunAttachments {
  private RunAttachments() {}

  /**
   * The attachments given inline. Attachments by URL are not fetched; a file name with a folder or
   * a dot-only name is refused, since it would escape {@code attachments/}.
   *
   * @throws IllegalArgumentException naming the attachment that cannot be placed
   */
  static List<Attachment> inline(Run run) {
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
        throw new IllegalArgumentException(
            "Attachment name '" + name + "' must be a plain file name");
      }
      try {
        Base64.getDecoder().decode(attachment.getContent());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Attachment " + name + " is not valid base64", e);
      }
      inline.add(attachment);
    }
    return inline;
  }

  /** Where an attachment lands, relative to the workspace. */
  static String path(Attachment attachment) {
    return "attachments/" + attachment.getName();
  }
}
