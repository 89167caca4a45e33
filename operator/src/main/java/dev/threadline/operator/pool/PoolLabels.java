package dev.threadline.operator.pool;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.computer.AgentObjects;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Names and labels of a warm pool's objects. A pool Pod carries {@value #POOL} (its environment)
 * and {@value #STATE} ({@value #READY} until claimed, then {@value #CLAIMED}); the pool's deny-all
 * NetworkPolicy selects only {@value #READY} ones, and a claim moves the Pod under its run's
 * labels, so the run's own policy takes over by the same label change.
 */
public final class PoolLabels {
  public static final String POOL = "threadline.dev/pool";
  public static final String STATE = "threadline.dev/pool-state";
  public static final String READY = "ready";
  public static final String CLAIMED = "claimed";

  /** The pool Pod's Environment (its name may be longer than a label value). */
  public static final String ENVIRONMENT_ANNOTATION = "threadline.dev/environment";

  /** The component label of unclaimed pool Pods (claimed ones become agent Pods). */
  public static final String WARM_SANDBOX = "warm-sandbox";

  private PoolLabels() {}

  /** Selects every pool Pod, claimed or not. */
  public static String selector() {
    return Labels.MANAGED_BY + "=" + Labels.MANAGER + "," + POOL;
  }

  /** Labels of an unclaimed pool Pod of {@code environment}. */
  public static Map<String, String> unclaimed(Environment environment) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.MANAGED_BY, Labels.MANAGER);
    labels.put(AgentObjects.COMPONENT, WARM_SANDBOX);
    labels.put(POOL, poolValue(environment.getMetadata().getName()));
    labels.put(STATE, READY);
    return labels;
  }

  /** What the pool's NetworkPolicy selects: the environment's unclaimed Pods. */
  public static Map<String, String> unclaimedSelector(Environment environment) {
    return Map.of(POOL, poolValue(environment.getMetadata().getName()), STATE, READY);
  }

  /** The label value naming an environment's pool. */
  public static String poolValue(String environment) {
    return environment.length() <= 63
        ? environment
        : environment.substring(0, 54) + "-" + hash(environment);
  }

  public static boolean isPoolPod(Pod pod) {
    return pod.getMetadata().getLabels() != null && pod.getMetadata().getLabels().containsKey(POOL);
  }

  public static boolean isClaimed(Pod pod) {
    return isPoolPod(pod) && CLAIMED.equals(pod.getMetadata().getLabels().get(STATE));
  }

  /** The environment a pool Pod serves. */
  public static String environment(Pod pod) {
    Map<String, String> annotations =
        Objects.requireNonNullElse(pod.getMetadata().getAnnotations(), Map.of());
    return annotations.get(ENVIRONMENT_ANNOTATION);
  }

  /** The pool's Secret (its bind credential) and NetworkPolicy. */
  public static String accessName(String environment) {
    return environment + "-pool";
  }

  private static String hash(String text) {
    return Integer.toHexString(text.hashCode() & 0x7fffffff);
  }
}
