package dev.threadline.api.paging;

import dev.threadline.api.errors.ApiException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

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
   * This page of {@code items} in {@code order}, the same as {@link #apply} of the sorted items,
   * but the page is chosen with a heap of {@code offset + limit} items instead of sorting them all:
   * a page of a few thousand costs a pass rather than a sort.
   */
  public <T> ListEnvelope<T> select(Collection<T> items, Comparator<? super T> order) {
    int total = items.size();
    long wanted = Math.min((long) offset + limit, total);
    if (offset >= total) {
      return ListEnvelope.of(List.of(), false, total);
    }
    PriorityQueue<T> firsts = new PriorityQueue<>((int) wanted, order.reversed());
    for (T item : items) {
      if (firsts.size() < wanted) {
        firsts.add(item);
      } else if (order.compare(item, firsts.peek()) < 0) {
        firsts.poll();
        firsts.add(item);
      }
    }
    List<T> sorted = new ArrayList<>(firsts);
    sorted.sort(order);
    return ListEnvelope.of(sorted.subList(offset, sorted.size()), wanted < total, total);
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
