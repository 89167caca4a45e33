package dev.threadline.api.threads;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.run.Attachment;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Validates the files given with a message and turns them into the Run's attachments. Each is
 * {@code {name, mediaType?, content (base64) | url}}. Inline files travel inside the Run object,
 * and etcd keeps objects under 1.5 MiB: hence at most 10 files, 512 KiB each and 768 KiB in all
 * (decoded); larger files go by {@code url}, which the agent fetches.
 */
final class AttachmentRules {
  static final int MAX_FILES = 10;
  static final int MAX_FILE_BYTES = 512 * 1024;
  static final int MAX_TOTAL_BYTES = 768 * 1024;
  static final int MAX_NAME = 255;
  static final int MAX_URL = 2048;

  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  private static final Pattern MEDIA_TYPE =
      Pattern.compile("[\\w!#$&^.+-]+/[\\w!#$&^.+-]+(\\s*;.*)?");

  private AttachmentRules() {}

  /** The attachments to store; an empty list for none. */
  static List<Attachment> validate(List<ThreadRequests.AttachmentInput> inputs) {
    if (inputs == null || inputs.isEmpty()) {
      return List.of();
    }
    if (inputs.size() > MAX_FILES) {
      throw ApiException.badRequest("attachments", "must hold at most " + MAX_FILES + " files");
    }
    List<Attachment> attachments = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < inputs.size(); i++) {
      String field = "attachments[" + i + "]";
      ThreadRequests.AttachmentInput input = inputs.get(i);
      if (input == null) {
        throw ApiException.badRequest(field, "must be an object");
      }
      Attachment attachment = new Attachment();
      attachment.setName(name(field + ".name", input.name()));
      attachment.setMediaType(mediaType(field + ".mediaType", input.mediaType()));
      boolean inline = input.content() != null;
      boolean linked = input.url() != null;
      if (inline == linked) {
        throw ApiException.badRequest(
            field, inline ? "takes content or url, not both" : "needs content (base64) or url");
      }
      if (inline) {
        // Line breaks are common in base64 (MIME wraps at 76): kept out of the stored form.
        String content = WHITESPACE.matcher(input.content()).replaceAll("");
        total += decodedSize(field + ".content", content);
        attachment.setContent(content);
      } else {
        attachment.setUrl(url(field + ".url", input.url()));
      }
      attachments.add(attachment);
    }
    if (total > MAX_TOTAL_BYTES) {
      throw ApiException.badRequest(
          "attachments",
          "must be at most "
              + kib(MAX_TOTAL_BYTES)
              + " in total (decoded); give larger files by url");
    }
    return attachments;
  }

  private static String name(String field, String value) {
    if (value == null || value.isBlank()) {
      throw ApiException.badRequest(field, "is required");
    }
    String name = value.strip();
    if (name.length() > MAX_NAME) {
      throw ApiException.badRequest(field, "must be at most " + MAX_NAME + " characters");
    }
    if (name.contains("/")
        || name.contains("\\")
        || name.equals(".")
        || name.equals("..")
        || name.chars().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest(field, "must be a file name without folders");
    }
    return name;
  }

  private static String mediaType(String field, String value) {
    if (value == null) {
      return null;
    }
    String type = value.strip().toLowerCase(Locale.ROOT);
    if (type.length() > MAX_NAME || !MEDIA_TYPE.matcher(type).matches()) {
      throw ApiException.badRequest(field, "must be a media type such as text/plain");
    }
    return type;
  }

  private static long decodedSize(String field, String content) {
    byte[] decoded;
    try {
      // The strict decoder: the MIME one skips characters outside the alphabet without a word.
      decoded = Base64.getDecoder().decode(content);
    } catch (IllegalArgumentException notBase64) {
      throw ApiException.badRequest(field, "must be base64");
    }
    if (decoded.length > MAX_FILE_BYTES) {
      throw ApiException.badRequest(
          field, "must be at most " + kib(MAX_FILE_BYTES) + " (decoded); give larger files by url");
    }
    return decoded.length;
  }

  private static String url(String field, String value) {
    String url = value.strip();
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (url.length() <= MAX_URL
          && (scheme.equals("http") || scheme.equals("https"))
          && uri.getHost() != null) {
        return url;
      }
    } catch (URISyntaxException malformed) {
      // reported below
    }
    throw ApiException.badRequest(
        field, "must be an http or https URL of at most " + MAX_URL + " characters");
  }

  private static String kib(int bytes) {
    return bytes / 1024 + " KiB";
  }
}
