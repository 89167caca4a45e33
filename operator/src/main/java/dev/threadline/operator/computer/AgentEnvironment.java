package dev.threadline.operator.computer;

import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.environment.EnvironmentImages;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * Where a run executes: the environment it names (copied from its thread), else the thread's, else
 * the user's default environment, else none. Its webhooks follow the same rule.
 *
 * <p>The image is the environment's last successful build, {@code
 * <registry>/<namespace>/env-<name>}, by {@code status.imageDigest} when the build reported one and
 * by {@code status.imageTag} otherwise, when its buildStatus is {@code ready}. Otherwise — no
 * environment, never built, building or failed — the run does not wait: it uses the operator's
 * runner image, which has the runner and common tools but none of the environment's runtimes and
 * packages.
 *
 * @param name the Environment's name, or null when the run has none
 * @param image the image of the agent Pod
 * @param internetAccess false when the environment forbids it (see {@link
 *     dev.threadline.operator.sandbox.SandboxNetworkPolicy})
 * @param spec the Environment's spec (variables, secrets, MCP servers, documentation), or null
 */
public record AgentEnvironment(
    String name, String image, boolean internetAccess, EnvironmentSpec spec) {

  /**
   * The run's Thread.
   *
   * @throws AgentStartException when it does not exist
   */
  public static ConversationThread thread(KubernetesClient client, Run run) {
    ConversationThread thread =
        client
            .resources(ConversationThread.class)
            .inNamespace(run.getMetadata().getNamespace())
            .withName(run.getSpec().getThread())
            .get();
    if (thread == null) {
      throw new AgentStartException("Thread " + run.getSpec().getThread() + " does not exist");
    }
    return thread;
  }

  /**
   * The run's environment, its thread read first.
   *
   * @throws AgentStartException when its thread or the environment it names does not exist
   */
  public static AgentEnvironment ofRun(
      KubernetesClient client, Run run, OperatorSettings settings) {
    return resolve(client, run, thread(client, run), settings.registry(), settings.runnerImage());
  }

  public static AgentEnvironment resolve(
      KubernetesClient client,
      Run run,
      ConversationThread thread,
      String registry,
      String runnerImage) {
    return resolve(
        client, run.getMetadata().getNamespace(), nameOf(run, thread), registry, runnerImage);
  }

  /**
   * The environment of that name, else (when {@code named} is null) the namespace's default
   * environment, else none — for a Pod that names its environment directly (a container).
   *
   * @throws AgentStartException when a named environment does not exist
   */
  public static AgentEnvironment resolve(
      KubernetesClient client,
      String namespace,
      String named,
      String registry,
      String runnerImage) {
    Optional<Environment> environment = lookup(client, namespace, named);
    if (named != null && environment.isEmpty()) {
      throw new AgentStartException("Environment " + named + " does not exist");
    }
    return environment
        .map(e -> of(e, registry, runnerImage))
        .orElse(new AgentEnvironment(null, runnerImage, true, null));
  }

  /** The run's Environment resource: the one it or its thread names, else the user's default. */
  public static Optional<Environment> resourceOf(
      KubernetesClient client, Run run, ConversationThread thread) {
    return lookup(client, run.getMetadata().getNamespace(), nameOf(run, thread));
  }

  /**
   * The environment a run names (copied from its thread when it was made), else the one its thread
   * names ({@code thread} may be null), else null: the namespace's default applies.
   */
  public static String nameOf(Run run, ConversationThread thread) {
    return firstNonBlank(
        run.getSpec().getEnvironment(),
        thread == null || thread.getSpec() == null ? null : thread.getSpec().getEnvironment());
  }

  /** Whether this is the namespace's default environment, the one a run naming none uses. */
  public static boolean isActiveDefault(Environment environment) {
    return environment.getSpec() != null
        && Boolean.TRUE.equals(environment.getSpec().getIsDefault())
        && !Boolean.FALSE.equals(environment.getSpec().getIsActive());
  }

  /**
   * The environment of that name, or (when {@code named} is null) the namespace's active default.
   */
  private static Optional<Environment> lookup(
      KubernetesClient client, String namespace, String named) {
    if (named != null) {
      return Optional.ofNullable(
          client.resources(Environment.class).inNamespace(namespace).withName(named).get());
    }
    return client.resources(Environment.class).inNamespace(namespace).list().getItems().stream()
        .filter(AgentEnvironment::isActiveDefault)
        .findFirst();
  }

  public static AgentEnvironment of(Environment environment, String registry, String runnerImage) {
    var status = environment.getStatus();
    boolean built =
        status != null
            && status.getBuildStatus() == BuildStatus.READY
            && status.getImageTag() != null
            && !status.getImageTag().isBlank();
    String image =
        built
            ? EnvironmentImages.runnable(
                registry,
                environment.getMetadata().getNamespace(),
                status.getImageTag(),
                status.getImageDigest())
            : runnerImage;
    boolean internet =
        environment.getSpec() == null
            || !Boolean.FALSE.equals(environment.getSpec().getInternetAccess());
    return new AgentEnvironment(
        environment.getMetadata().getName(), image, internet, environment.getSpec());
  }

  private static String firstNonBlank(String a, String b) {
    if (a != null && !a.isBlank()) {
      return a;
    }
    return b != null && !b.isBlank() ? b : null;
  }
}
