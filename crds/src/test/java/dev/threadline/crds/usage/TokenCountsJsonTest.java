package dev.threadline.crds.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.thread.ThreadStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shared token type keeps each status's JSON as the contract and the CRD schemas have it. */
class TokenCountsJsonTest {
  private final KubernetesSerialization json = new KubernetesSerialization();

  @Test
  void aThreadsTotalsStayFlatFields() {
    ThreadStatus status = new ThreadStatus();
    status.setTokens(new TokenCounts(12, 3, 1));
    status.setTotalCost(0.25);

    Map<String, Object> written = asMap(json.asJson(status));

    assertThat(written)
        .containsEntry("inputTokens", 12)
        .containsEntry("outputTokens", 3)
        .containsEntry("cachedTokens", 1)
        .containsEntry("totalCost", 0.25)
        .doesNotContainKey("tokens");
    ThreadStatus read = json.unmarshal(json.asJson(status), ThreadStatus.class);
    assertThat(read.tokens()).isEqualTo(new TokenCounts(12, 3, 1));
  }

  @Test
  void aLedgerStartsAtZeroAndItsEntriesAreFlat() {
    UsageLedgerStatus ledger = new UsageLedgerStatus();
    ledger.getPending().put("uid-1", new UsageEntry("run-1", new TokenCounts(5, 2, 0), 0.5));

    Map<String, Object> written = asMap(json.asJson(ledger));

    assertThat(written).containsEntry("inputTokens", 0).containsEntry("totalCost", 0.0);
    assertThat((Map<?, ?>) ((Map<?, ?>) written.get("pending")).get("uid-1"))
        .isEqualTo(
            Map.of(
                "run",
                "run-1",
                "inputTokens",
                5,
                "outputTokens",
                2,
                "cachedTokens",
                0,
                "cost",
                0.5));
    UsageLedgerStatus read = json.unmarshal(json.asJson(ledger), UsageLedgerStatus.class);
    assertThat(read.getPending().get("uid-1"))
        .isEqualTo(new UsageEntry("run-1", new TokenCounts(5, 2, 0), 0.5));
  }

  @Test
  void missingCountsAddUpAsZero() {
    TokenCounts partial = new TokenCounts();
    partial.setInputTokens(4L);

    assertThat(TokenCounts.zero().plus(partial).plus(null)).isEqualTo(new TokenCounts(4, 0, 0));
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> asMap(String text) {
    return json.unmarshal(text, Map.class);
  }
}
