package dev.threadline.api.common;

import dev.threadline.api.errors.ApiException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bound on a client's free-form {@code metadata} object (threads, schedules): stored as given
 * in the resource, so it must stay small next to etcd's limit of about 1.5 MiB per object.
 */
public final class MetadataRules {
  public static final int MAX_BYTES = 16 * 1024;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private MetadataRules() {}

  /** Refuses {@code value} (a JSON tree or a map) when its JSON is over {@link #MAX_BYTES}. */
  public static void checkSize(String field, Object value) {
    if (value != null && JSON.writeValueAsBytes(value).length > MAX_BYTES) {
      throw ApiException.badRequest(field, "must be at most " + MAX_BYTES + " bytes as JSON");
    }
  }
}
