package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** Package names by kind, installed into the environment's image. */
public class EnvironmentPackages {
  @JsonPropertyDescription("Debian packages (apt).")
  private List<String> system = new ArrayList<>();

  @JsonPropertyDescription("Python packages (pip).")
  private List<String> python = new ArrayList<>();

  @JsonPropertyDescription("Node.js packages (npm, global).")
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
