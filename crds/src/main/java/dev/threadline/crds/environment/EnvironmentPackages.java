package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

/** Package names by kind, installed into the environment's image. */
public class EnvironmentPackages {
  public static final int MAX_PER_KIND = 200;

  @JsonPropertyDescription("Debian packages (apt).")
  @Size(max = MAX_PER_KIND)
  private List<String> system = new ArrayList<>();

  @JsonPropertyDescription("Python packages (pip).")
  @Size(max = MAX_PER_KIND)
  private List<String> python = new ArrayList<>();

  @JsonPropertyDescription("Node.js packages (npm, global).")
  @Size(max = MAX_PER_KIND)
  private List<String> node = new ArrayList<>();

  public List<String> getSystem() {
    return system;
  }

  public void setSystem(List<String> system) {
    this.system = system;
  }

  public List<String> getPython() {
    return python;
  }

  public void setPython(List<String> python) {
    this.python = python;
  }

  public List<String> getNode() {
    return node;
  }

  public void setNode(List<String> node) {
    this.node = node;
  }
}
