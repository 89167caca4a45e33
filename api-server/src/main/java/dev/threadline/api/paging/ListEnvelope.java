package dev.threadline.api.paging;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.function.Function;

/**
 * The contract's list envelope: {@code {object: "list", data, has_more, total_count}} and, for
 * schedule lists only, {@code stats}.
 */
public record ListEnvelope<T>(
    String object,
    List<T> data,
    @JsonProperty("has_more") boolean hasMore,
    @JsonProperty("total_count") long totalCount,
    @JsonInclude(JsonInclude.Include.NON_NULL) ListStats stats) {

  public static final String OBJECT = "list";

  public ListEnvelope {
    data = List.copyOf(data);
  }

  public static <T> ListEnvelope<T> of(List<T> data, boolean hasMore, long totalCount) {
    return new ListEnvelope<>(OBJECT, data, hasMore, totalCount, null);
  }

  /** The same page with each item converted, e.g. custom resources to response DTOs. */
  public <R> ListEnvelope<R> map(Function<? super T, ? extends R> mapper) {
    List<R> mapped = data.stream().<R>map(mapper).toList();
    return new ListEnvelope<>(object, mapped, hasMore, totalCount, stats);
  }

  /** The same page carrying stats. */
  public ListEnvelope<T> withStats(ListStats newStats) {
    return new ListEnvelope<>(object, data, hasMore, totalCount, newStats);
  }
}
