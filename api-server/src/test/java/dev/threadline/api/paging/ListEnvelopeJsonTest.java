package dev.threadline.api.paging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The wire names are the contract's, under the same Jackson 3 Spring MVC uses. */
class ListEnvelopeJsonTest {
  private final JsonMapper json = JsonMapper.builder().build();

  @Test
  void serialisesWithContractNamesAndNoStatsByDefault() {
    String body = json.writeValueAsString(ListEnvelope.of(List.of("a"), true, 3));

    assertThat(body)
        .isEqualTo("{\"object\":\"list\",\"data\":[\"a\"],\"has_more\":true,\"total_count\":3}");
  }

  @Test
  void serialisesStatsWhenPresent() {
    record Stats(long total, long enabled, long disabled) implements ListStats {}

    String body =
        json.writeValueAsString(ListEnvelope.of(List.of(), false, 0).withStats(new Stats(2, 1, 1)));

    assertThat(body).endsWith("\"stats\":{\"total\":2,\"enabled\":1,\"disabled\":1}}");
  }
}
