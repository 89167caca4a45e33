package dev.threadline.operator.sandbox;

import java.util.Map;

/**
 * The Pods allowed to connect to a sandbox: the worker (operator Pods) for runs, the api-server for
 * containers.
 *
 * @param namespace where those Pods run
 * @param podLabels labels those Pods carry
 */
public record SandboxCallers(String namespace, Map<String, String> podLabels) {
  public SandboxCallers {
    podLabels = Map.copyOf(podLabels);
  }
}
