package dev.threadline.api.environments;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values an Environment's own Secret should hold after a write: new values from the request,
 * and stored values carried over for entries the request kept. Anything not carried is dropped, so
 * a removed variable's value does not linger.
 */
final class SecretValues {
  private final Map<String, String> stored;
  private final Map<String, String> next = new LinkedHashMap<>();

  private SecretValues(Map<String, String> stored) {
    this.stored = Map.copyOf(stored);
  }

  static SecretValues startingFrom(Map<String, String> stored) {
    return new SecretValues(stored);
  }

  static SecretValues none() {
    return new SecretValues(Map.of());
  }

  void set(String key, String value) {
    next.put(key, value);
  }

  /** Keeps the stored value of {@code key}; false when there is none. */
  boolean carry(String key) {
    String value = stored.get(key);
    if (value == null) {
      return false;
    }
    next.put(key, value);
    return true;
  }

  Map<String, String> data() {
    return Map.copyOf(next);
  }

  /** Whether the Secret must be written: its content changes. */
  boolean changed() {
    return !stored.equals(next);
  }
}
