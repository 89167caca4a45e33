package dev.threadline.api.idempotency;

import dev.threadline.api.errors.ApiException;
import dev.threadline.core.hashing.Sha256;

/**
 * The {@code Idempotency-Key} header: what a valid key is, and the name of the record that holds
 * it. The record is named from a hash of the key, so any string a client picks (a UUID, an order
 * number) makes a valid Kubernetes name, and the key itself is not stored.
 */
public final class IdempotencyKeys {
  public static final String HEADER = "Idempotency-Key";
  static final int MAX_LENGTH = 255;
  private static final String RECORD_PREFIX = "idempotency-";

  private IdempotencyKeys() {}

  /** 400 naming the header unless the key is 1-255 visible ASCII characters. */
  static String validate(String key) {
    if (key.isEmpty()
        || key.length() > MAX_LENGTH
        || !key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw ApiException.badRequest(
          HEADER, "must be 1 to " + MAX_LENGTH + " visible ASCII characters (e.g. a UUID)");
    }
    return key;
  }

  /**
   * The ConfigMap that records the key: {@code idempotency-<first 40 hex digits of SHA-256(key)>}.
   */
  static String recordName(String key) {
    return RECORD_PREFIX + Sha256.hex(key).substring(0, 40);
  }
}
