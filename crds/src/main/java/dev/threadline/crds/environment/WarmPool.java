package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * How many ready sandboxes of the environment's image the operator keeps waiting for computer runs
 * to claim. See docs/warm-pools.md.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WarmPool {
  /** The most a single environment may ask for; the chart's cluster-wide cap may be lower. */
  public static final int MAX_SIZE = 50;

  @JsonPropertyDescription(
      "Ready sandboxes to keep (0 to " + MAX_SIZE + "); 0 means no pool: every run starts cold.")
  @Required
  @Min(0)
  @Max(MAX_SIZE)
  private Integer size;

  public WarmPool() {}

  public WarmPool(Integer size) {
    this.size = size;
  }

  public Integer getSize() {
    return size;
  }

  public void setSize(Integer size) {
    this.size = size;
  }
}
