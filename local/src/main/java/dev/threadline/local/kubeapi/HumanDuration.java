package dev.threadline.local.kubeapi;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Ages as Kubernetes prints them ("45s", "3m12s", "5h", "2d3h"): the API server renders date
 * columns of a Table this way (apimachinery's {@code duration.HumanDuration}), kubectl prints them
 * as they come.
 */
final class HumanDuration {
  private HumanDuration() {}

  /** The age of an RFC 3339 timestamp at {@code now}; {@code <unknown>} when it cannot be read. */
  static String since(String timestamp, Instant now) {
    try {
      return of(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException | NullPointerException e) {
      return "<unknown>";
    }
  }

  static String of(Duration d) {
    long seconds = d.getSeconds();
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = d.toMinutes();
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    } else if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = d.toHours();
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      long days = (hours / 24) % 365;
      return days == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + days + "d";
    }
    return hours / 24 / 365 + "y";
  }
}
