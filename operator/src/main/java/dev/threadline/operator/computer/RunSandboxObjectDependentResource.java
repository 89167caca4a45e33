package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * A run's sandbox object that is created once under a deterministic name and never updated (its
 * credential's random bytes, a Pod's immutable spec): found by that name, and created idempotently
 * — a second operator that got there first leaves its object, which is then the run's.
 */
abstract class RunSandboxObjectDependentResource<R extends HasMetadata>
    extends KubernetesDependentResource<R, Run> implements Creator<R, Run>, GarbageCollected<Run> {

  RunSandboxObjectDependentResource(Class<R> type) {
    super(type);
  }

  /** The object's name for this run. */
  abstract String nameFor(Run run);

  @Override
  public R create(R desired, Run run, Context<Run> context) {
    return IdempotentCreate.orExisting(
        context.getClient(), desired, () -> super.create(desired, run, context));
  }

  @Override
  protected ResourceID targetSecondaryResourceID(Run run, Context<Run> context) {
    return new ResourceID(nameFor(run), run.getMetadata().getNamespace());
  }
}
