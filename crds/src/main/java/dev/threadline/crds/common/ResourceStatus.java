package dev.threadline.crds.common;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** What every Threadline status carries: the generation it describes and standard conditions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class ResourceStatus {
  @JsonPropertyDescription("The metadata.generation this status was computed from.")
  @Min(0)
  private Long observedGeneration;

  @JsonPropertyDescription("Standard conditions, keyed by type; `Ready` summarises the resource.")
  private List<Condition> conditions = new ArrayList<>();

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions == null ? new ArrayList<>() : conditions;
  }
}
