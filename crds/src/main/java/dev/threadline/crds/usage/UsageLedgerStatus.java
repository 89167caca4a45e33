package dev.threadline.crds.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The month's totals and the runs counted but not yet marked as counted on the Run itself.
 *
 * <p>Counting is two-phase so that it is exact and the ledger stays small: (1) one status write
 * adds a run's entry to {@code pending} and its figures to the totals, unless its entry is there
 * already; (2) the Run gets {@code status.usageRecorded}; (3) a later write of the ledger drops
 * pending entries whose Run is marked or gone. A crash between the steps repeats a step whose
 * effect is already visible, never the addition.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UsageLedgerStatus extends UsageTotalsStatus {
  public UsageLedgerStatus() {
    setTokens(TokenCounts.zero());
    setTotalCost(0.0);
  }

  @JsonPropertyDescription("How many runs were counted.")
  @Min(0)
  private Long runs = 0L;

  @JsonPropertyDescription("Runs counted whose Run does not yet say so, keyed by the Run's uid.")
  private Map<String, UsageEntry> pending = new LinkedHashMap<>();

  public Long getRuns() {
    return runs;
  }

  public void setRuns(Long runs) {
    this.runs = runs;
  }

  public Map<String, UsageEntry> getPending() {
    return pending;
  }

  public void setPending(Map<String, UsageEntry> pending) {
    this.pending = pending == null ? new LinkedHashMap<>() : pending;
  }
}
