package dev.threadline.api.threads;

import dev.threadline.api.common.JsonBridge;
import dev.threadline.api.common.MetadataRules;
import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.run.MultitaskStrategy;
import tools.jackson.databind.JsonNode;

/**
 * Field rules for threads and messages, matching the CRD's bounds so that bad input is a 400 naming
 * the field here, not an opaque rejection by the Kubernetes API.
 */
final class ThreadRules {
  static final int MAX_TITLE = 500;
  static final int MAX_APP_ID = 200;

  /** A Run lives in etcd next to its attachments; objects there stay under 1.5 MiB. */
  static final int MAX_MESSAGE = 200_000;

  /** Titles derived from the first message are cut here. */
  static final int DERIVED_TITLE = 100;

  private ThreadRules() {}

  /** A title, stripped; blank means none. */
  static String title(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    return bounded("title", value.strip(), MAX_TITLE);
  }

  /** The first line of the first message, cut to a readable length. */
  static String titleFrom(String message) {
    String firstLine = message.strip().lines().findFirst().orElse("").strip();
    if (firstLine.length() <= DERIVED_TITLE) {
      return firstLine;
    }
    return firstLine.substring(0, DERIVED_TITLE - 1).stripTrailing() + "…";
  }

  static String appId(String value) {
    if (value == null) {
      return null;
    }
    if (value.isBlank()) {
      throw ApiException.badRequest("appId", "must not be blank");
    }
    return bounded("appId", value.strip(), MAX_APP_ID);
  }

  /** An object, stored as given; JSON null counts as absent. */
  static com.fasterxml.jackson.databind.JsonNode metadata(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return null;
    }
    if (!value.isObject()) {
      throw ApiException.badRequest("metadata", "must be an object");
    }
    MetadataRules.checkSize("metadata", value);
    return JsonBridge.toResource(value);
  }

  /** A message's text: required, not blank, bounded. */
  static String content(String field, String value) {
    if (value == null) {
      throw ApiException.badRequest(field, "is required");
    }
    if (value.isBlank()) {
      throw ApiException.badRequest(field, "must not be blank");
    }
    return bounded(field, value, MAX_MESSAGE);
  }

  /** A message's {@code multitaskStrategy}: absent means {@code reject}, the contract's 409. */
  static MultitaskStrategy multitaskStrategy(String value) {
    if (value == null) {
      return MultitaskStrategy.REJECT;
    }
    return MultitaskStrategy.fromValue(value)
        .orElseThrow(() ->
            ApiException.badRequest(
                "multitaskStrategy", "must be one of " + MultitaskStrategy.VALUES));
  }

  private static String bounded(String field, String value, int max) {
    if (value.length() > max) {
      throw ApiException.badRequest(field, "must be at most " + max + " characters");
    }
    return value;
  }
}
