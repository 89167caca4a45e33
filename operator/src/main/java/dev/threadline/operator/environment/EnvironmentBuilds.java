package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.config.OperatorSettings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The builds an Environment's objects exist for, as the reconciler decided them before it invokes
 * the workflow: the builds started in this reconcile (their objects are made) and every build the
 * status still names (its objects are kept while they exist, never made again: a finished build's
 * Job deleted by hand must not run again). Every other build object of the Environment is deleted
 * by the framework. Build objects are immutable and named after their build, so a name is all a
 * dependent compares.
 */
record EnvironmentBuilds(List<StartedBuild> started, Set<String> named, OperatorSettings settings) {

  /** A build whose objects this reconcile makes, with the plan it builds. */
  record StartedBuild(BuildKind kind, String name, BuildPlan.Buildable plan) {}

  void putInto(Context<Environment> context) {
    context.managedWorkflowAndDependentResourceContext().put(EnvironmentBuilds.class, this);
  }

  static EnvironmentBuilds of(Context<Environment> context) {
    return context
        .managedWorkflowAndDependentResourceContext()
        .getMandatory(EnvironmentBuilds.class, EnvironmentBuilds.class);
  }

  /**
   * The wanted objects of one kind: the ones that exist for a build the status names, as they are,
   * and a new one for each started build.
   */
  <R extends HasMetadata> Map<ResourceID, R> wanted(
      Map<ResourceID, R> existing, Function<StartedBuild, R> make) {
    Map<ResourceID, R> wanted = new HashMap<>();
    existing.forEach((id, object) -> {
      if (named.contains(object.getMetadata().getName())) {
        wanted.put(id, object);
      }
    });
    for (StartedBuild build : started) {
      R object = make.apply(build);
      wanted.putIfAbsent(ResourceID.fromResource(object), object);
    }
    return wanted;
  }
}
