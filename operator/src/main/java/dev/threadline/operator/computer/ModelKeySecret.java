package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Map;

/**
 * The model's API key for one agent Pod, which reads it as {@code THREADLINE_MODEL_API_KEY}. The
 * operator holds the key (from its own Secret, see the Helm chart) and copies it into the run's
 * namespace only for as long as the Pod runs: the Secret is deleted with the Pod when the run ends
 * (and, at the latest, with the Run that owns it). It is never in run.json, a ConfigMap, an event
 * or a log line. Whoever may read Secrets in the user's namespace can read it while a run lasts; a
 * model gateway that holds the key outside user namespaces is the stricter design.
 */
public final class ModelKeySecret {
  public static final String KEY = "api-key";

  private ModelKeySecret() {}

  public static Secret of(Run run, String apiKey) {
    return AgentObjects.immutableSecret(run, AgentObjects.modelKeySecretName(run))
        .withStringData(Map.of(KEY, apiKey))
        .build();
  }
}
