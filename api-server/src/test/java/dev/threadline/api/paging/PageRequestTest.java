package dev.threadline.api.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageRequestTest {
  @Test
  void absentParametersMeanFirstPageOfFifty() {
    assertThat(PageRequest.parse(null, null)).isEqualTo(new PageRequest(50, 0));
  }

  @Test
  void acceptsTheRangeBoundsAndSurroundingSpaces() {
    assertThat(PageRequest.parse("1", "0")).isEqualTo(new PageRequest(1, 0));
    assertThat(PageRequest.parse(" 100 ", "7")).isEqualTo(new PageRequest(100, 7));
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      delimiter = '|',
      value = {
        "0            | NULL | limit must be between 1 and 100",
        "101          | NULL | limit must be between 1 and 100",
        "-5           | NULL | limit must be between 1 and 100",
        "99999999999  | NULL | limit must be between 1 and 100",
        "abc          | NULL | limit must be a number",
        "''           | NULL | limit must be a number",
        "2.5          | NULL | limit must be a whole number",
        "1e2          | NULL | limit must be a whole number",
        "10           | -1   | offset must be 0 or greater",
        "10           | x    | offset must be a number"
      })
  void rejectsBadValuesNamingTheParameter(String limit, String offset, String message) {
    assertThatThrownBy(() -> PageRequest.parse(limit, offset))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.BAD_REQUEST);
              assertThat(e.getMessage()).isEqualTo(message);
            });
  }

  @Test
  void endpointsMayChooseTheirOwnLimits() {
    assertThat(PageRequest.parse(null, null, 20, 500)).isEqualTo(new PageRequest(20, 0));
    assertThat(PageRequest.parse("500", null, 20, 500).limit()).isEqualTo(500);
    assertThatThrownBy(() -> PageRequest.parse("501", null, 20, 500))
        .hasMessage("limit must be between 1 and 500");
  }

  @Test
  void applyCutsThePageAndCountsEverything() {
    List<Integer> items = List.of(1, 2, 3, 4, 5);

    assertThat(new PageRequest(2, 0).apply(items))
        .isEqualTo(ListEnvelope.of(List.of(1, 2), true, 5));
    assertThat(new PageRequest(2, 2).apply(items))
        .isEqualTo(ListEnvelope.of(List.of(3, 4), true, 5));
    assertThat(new PageRequest(2, 4).apply(items)).isEqualTo(ListEnvelope.of(List.of(5), false, 5));
    assertThat(new PageRequest(5, 0).apply(items)).isEqualTo(ListEnvelope.of(items, false, 5));
    assertThat(new PageRequest(2, 9).apply(items)).isEqualTo(ListEnvelope.of(List.of(), false, 5));
    assertThat(new PageRequest(100, Integer.MAX_VALUE).apply(items).data()).isEmpty();
  }

  @Test
  void fromOrderedGivesTheSamePagesAsApply() {
    List<Integer> sorted = IntStream.range(0, 57).boxed().toList();

    for (int limit : List.of(1, 10, 57, 100)) {
      for (int offset : List.of(0, 1, 9, 50, 56, 57, 90)) {
        PageRequest page = new PageRequest(limit, offset);
        assertThat(page.fromOrdered(sorted.stream(), sorted.size()))
            .as("limit %d offset %d, counted", limit, offset)
            .isEqualTo(page.apply(sorted));
        assertThat(page.fromOrdered(sorted.stream()))
            .as("limit %d offset %d, walked", limit, offset)
            .isEqualTo(page.apply(sorted));
      }
    }
    assertThat(new PageRequest(5, 0).fromOrdered(Stream.of()))
        .isEqualTo(ListEnvelope.of(List.of(), false, 0));
  }

  @Test
  void fromOrderedReadsOnlyThePageWhenTheTotalIsKnown() {
    AtomicInteger read = new AtomicInteger();
    Stream<Integer> endless = Stream.iterate(0, i -> i + 1).peek(i -> read.incrementAndGet());

    assertThat(new PageRequest(10, 20).fromOrdered(endless, 1_000_000))
        .isEqualTo(ListEnvelope.of(IntStream.range(20, 30).boxed().toList(), true, 1_000_000));
    assertThat(read.get()).isEqualTo(30);
  }

  @Test
  void envelopeMapsItemsAndCarriesStats() {
    record Stats(long total, long enabled, long disabled) implements ListStats {}

    ListEnvelope<String> page =
        new PageRequest(2, 0)
            .apply(List.of(1, 2, 3))
            .map(i -> "#" + i)
            .withStats(new Stats(3, 2, 1));

    assertThat(page.object()).isEqualTo("list");
    assertThat(page.data()).containsExactly("#1", "#2");
    assertThat(page.hasMore()).isTrue();
    assertThat(page.totalCount()).isEqualTo(3);
    assertThat(page.stats()).isEqualTo(new Stats(3, 2, 1));
  }
}
