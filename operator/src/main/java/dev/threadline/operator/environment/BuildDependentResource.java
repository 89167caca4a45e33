package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.KubernetesBulkDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Map;

/**
 * One kind of an Environment's build objects, one object per build ({@link EnvironmentBuilds}).
 * Created, never updated (a build's objects are immutable: a new configuration is a new build with
 * a new name); the framework deletes the ones no longer wanted, and Kubernetes the rest with the
 * Environment (they are owned by it).
 */
abstract class BuildDependentResource<R extends HasMetadata>
    extends KubernetesDependentResource<R, Environment>
    implements KubernetesBulkDependentResource<R, Environment>,
        Creator<R, Environment>,
        GarbageCollected<Environment> {

  BuildDependentResource(Class<R> type) {
    super(type);
  }

  /** The object of a build this reconcile starts. */
  abstract R desired(
      Environment environment, EnvironmentBuilds.StartedBuild build, EnvironmentBuilds builds);

  @Override
  public Map<ResourceID, R> desiredResources(
      Environment environment, Context<Environment> context) {
    EnvironmentBuilds builds = EnvironmentBuilds.of(context);
    return builds.wanted(
        getSecondaryResources(environment, context), build -> desired(environment, build, builds));
  }

  /**
   * A second operator (or a cache that was behind) may have made the build's object already: its
   * deterministic name makes the API's 409 mean "there", not a failure.
   */
  @Override
  public R create(R desired, Environment environment, Context<Environment> context) {
    return IdempotentCreate.orExisting(
        context.getClient(), desired, () -> super.create(desired, environment, context));
  }
}
