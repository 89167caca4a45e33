package dev.threadline.operator.config;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads typed values from THREADLINE_* variables, with errors that name the variable. */
public final class SettingValues {
  private SettingValues() {}

  /** A Kubernetes quantity (500m, 1Gi); the fallback when the variable is unset or blank. */
  public static Quantity quantity(Map<String, String> env, String key, String fallback) {
    String value = env.get(key);
    String text = value == null || value.isBlank() ? fallback : value.strip();
    try {
      Quantity quantity = new Quantity(text);
      Quantity.getAmountInBytes(quantity); // rejects what Kubernetes would reject
      return quantity;
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalArgumentException(
          key + " must be a Kubernetes quantity (e.g. 500m, 1Gi), got: " + text);
    }
  }

  /** A whole number; the fallback when the variable is unset or blank. */
  public static long whole(Map<String, String> env, String key, long fallback) {
    String value = env.get(key);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number, got: " + value);
    }
  }

  /**
   * A whole number from {@code min} to {@code max}; the fallback when the variable is unset or
   * blank.
   */
  public static int between(Map<String, String> env, String key, int fallback, int min, int max) {
    long value = whole(env, key, fallback);
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          key + " must be from " + min + " to " + max + ", got: " + env.get(key).strip());
    }
    return (int) value;
  }

  /** A comma-separated list without blanks; the fallback when the variable is unset or blank. */
  public static List<String> list(Map<String, String> env, String key, List<String> fallback) {
    String value = env.get(key);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    List<String> items = new ArrayList<>();
    for (String item : value.split(",")) {
      if (!item.isBlank()) {
        items.add(item.strip());
      }
    }
    return List.copyOf(items);
  }

  /** Ports, 1-65535, comma-separated. */
  public static List<Integer> ports(Map<String, String> env, String key, List<Integer> fallback) {
    List<String> items = list(env, key, null);
    if (items == null) {
      return fallback;
    }
    List<Integer> ports = new ArrayList<>();
    for (String item : items) {
      try {
        int port = Integer.parseInt(item);
        if (port < 1 || port > 65535) {
          throw new NumberFormatException();
        }
        ports.add(port);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + " must list ports 1-65535, got: " + item);
      }
    }
    return List.copyOf(ports);
  }
}
