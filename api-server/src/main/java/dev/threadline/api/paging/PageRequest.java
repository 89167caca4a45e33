package dev.threadline.api.paging;

import dev.threadline.api.errors.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One page of a list, from the {@code limit} and {@code offset} query parameters. Parsing rejects
 * bad values with a 400 that names the parameter rather than silently clamping them.
 */
public record PageRequest(int limit, int offset) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 100;
  public static final String LIMIT = "limit";
  public static final String OFFSET = "offset";

  public PageRequest {
    if (limit < 1 || offset < 0) {
      throw new IllegalArgumentException(
          "limit must be ≥ 1 and offset ≥ 0: " + limit + ", " + offset);
    }
  }

  /** The first page with the default limit. */
  public static PageRequest first() {
    return new PageRequest(DEFAULT_LIMIT, 0);
  }

  /** Parses raw query values (null when absent) with the default rules: limit 1-100, default 50. */
  public static PageRequest parse(String limit, String offset) {
    return parse(limit, offset, DEFAULT_LIMIT, MAX_LIMIT);
  }

  /** Parses raw query values (null when absent) with an endpoint's own limit rules. */
  public static PageRequest parse(String limit, String offset, int defaultLimit, int maxLimit) {
    int parsedLimit = limit == null ? defaultLimit : parseWholeNumber(LIMIT, limit);
    if (parsedLimit < 1 || parsedLimit > maxLimit) {
      throw ApiException.badRequest(LIMIT, "must be between 1 and " + maxLimit);
    }
    int parsedOffset = offset == null ? 0 : parseWholeNumber(OFFSET, offset);
    if (parsedOffset < 0) {
      throw ApiException.badRequest(OFFSET, "must be 0 or greater");
    }
    return new PageRequest(parsedLimit, parsedOffset);
  }

  /** This page of an already sorted list, with {@code has_more} and {@code total_count}. */
  public <T> ListEnvelope<T> apply(List<T> sorted) {
    int total = sorted.size();
    int from = Math.min(offset, total);
    int to = (int) Math.min((long) from + limit, total);
    return ListEnvelope.of(sorted.subList(from, to), to < total, total);
  }

  /**
   * This page of items already in order, of which there are {@code total}: only the page is read
   * from the stream.
   */
  public <T> ListEnvelope<T> fromOrdered(Stream<T> ordered, long total) {
    List<T> data = ordered.skip(offset).limit(limit).toList();
    return ListEnvelope.of(data, offset + data.size() < total, total);
  }

  /** This page of items already in order, counting them all (e.g. after a filter). */
  public <T> ListEnvelope<T> fromOrdered(Stream<T> ordered) {
    List<T> data = new ArrayList<>(limit);
    long[] total = {0};
    ordered.forEachOrdered(item -> {
      if (total[0] >= offset && data.size() < limit) {
        data.add(item);
      }
      total[0]++;
    });
    return ListEnvelope.of(data, offset + data.size() < total[0], total[0]);
  }

  private static int parseWholeNumber(String name, String raw) {
    String text = raw.strip();
    if (text.matches("[+-]?\\d+")) {
      try {
        return Integer.parseInt(text);
      } catch (NumberFormatException tooLarge) {
        // Larger than any int: out of range either way; report it as such below.
        return text.startsWith("-") ? Integer.MIN_VALUE : Integer.MAX_VALUE;
      }
    }
    if (text.matches("[+-]?(\\d+\\.\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?\\d+[eE][+-]?\\d+")) {
      throw ApiException.badRequest(name, "must be a whole number");
    }
    throw ApiException.badRequest(name, "must be a number");
  }
}
