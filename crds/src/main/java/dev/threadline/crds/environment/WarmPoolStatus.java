package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** The environment's warm pool as the pool controller last saw it (its only writer). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WarmPoolStatus {
  @JsonPropertyDescription("Pool sandboxes that are serving and unclaimed.")
  private Integer ready;

  @JsonPropertyDescription("Pool sandboxes claimed by runs and not yet gone.")
  private Integer claimed;

  @JsonPropertyDescription("The image the pool's sandboxes run (older ones are replaced).")
  private String image;

  public WarmPoolStatus() {}

  public WarmPoolStatus(Integer ready, Integer claimed, String image) {
    this.ready = ready;
    this.claimed = claimed;
    this.image = image;
  }

  public Integer getReady() {
    return ready;
  }

  public void setReady(Integer ready) {
    this.ready = ready;
  }

  public Integer getClaimed() {
    return claimed;
  }

  public void setClaimed(Integer claimed) {
    this.claimed = claimed;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WarmPoolStatus other
        && Objects.equals(ready, other.ready)
        && Objects.equals(claimed, other.claimed)
        && Objects.equals(image, other.image);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ready, claimed, image);
  }
}
