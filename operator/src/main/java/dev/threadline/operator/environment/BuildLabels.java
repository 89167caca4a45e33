package dev.threadline.operator.environment;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/** Labels of the objects a build is made of: the environment, the kind of build and its hash. */
final class BuildLabels {
  /** On a build's Pods: the Job's name (at most 63 characters, see {@link BuildNames}). */
  static final String JOB = "threadline.dev/build-job";

  private BuildLabels() {}

  /** The labels of a build's Pods: the build's, and the Job's name for its NetworkPolicy. */
  static Map<String, String> ofPod(Map<String, String> buildLabels, String jobName) {
    Map<String, String> labels = new LinkedHashMap<>(buildLabels);
    labels.put(JOB, jobName);
    return labels;
  }

  static Map<String, String> of(String environmentName, BuildKind kind, String hash) {
    Map<String, String> labels = new LinkedHashMap<>(forEnvironment(environmentName));
    labels.put(EnvironmentValues.BUILD_KIND_LABEL, kind.label());
    labels.put(EnvironmentValues.BUILD_HASH_LABEL, hash);
    return labels;
  }

  /**
   * The metadata every object of one build shares (its Job, build context and NetworkPolicy): the
   * build's name and labels, in the Environment's namespace, controlled by it (so garbage-collected
   * with it).
   */
  static ObjectMeta metadata(Environment environment, BuildKind kind, String name, String hash) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(environment.getMetadata().getNamespace())
        .withLabels(of(environment.getMetadata().getName(), kind, hash))
        .withOwnerReferences(OwnerReferences.controller(environment))
        .build();
  }

  static Map<String, String> forEnvironment(String environmentName) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.MANAGED_BY, Labels.MANAGER);
    // Label values hold 63 characters; longer names (kubectl users) are found through owners
    // instead.
    if (environmentName.length() <= 63) {
      labels.put(EnvironmentValues.ENVIRONMENT_LABEL, environmentName);
    }
    return labels;
  }
}
