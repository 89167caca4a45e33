package dev.threadline.operator.environment;

import dev.threadline.crds.environment.BuildPolicy;
import dev.threadline.crds.environment.BuildRequest;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * Why an image build starts now, if one does: a {@code spec.buildRequest} with an id the status has
 * not answered ({@code requested}), or, under {@link BuildPolicy#ON_CHANGE}, a spec whose image is
 * not built — its configuration's hash is not the one the status last built (or failed to build),
 * or nothing was built yet. A build that failed is not tried again for the same configuration: a
 * change of the spec or a new build request does. {@code requestId} names the build's objects: the
 * request's id, or {@code g<generation>} for a build the spec's change started.
 */
record BuildTrigger(String requestId, boolean force, boolean requested) {

  static Optional<BuildTrigger> of(
      Environment environment, EnvironmentStatus status, BuildPlan plan) {
    if (status.getBuildStatus() == BuildStatus.BUILDING) {
      return Optional.empty(); // a request made while a build runs is taken up when that build ends
    }
    EnvironmentSpec spec = environment.getSpec();
    BuildRequest request = spec == null ? null : spec.getBuildRequest();
    if (request != null
        && request.getId() != null
        && !request.getId().equals(status.getBuildRequestId())) {
      return Optional.of(
          new BuildTrigger(request.getId(), Boolean.TRUE.equals(request.getForce()), true));
    }
    BuildPolicy policy = spec == null ? null : spec.getBuildPolicy();
    if (policy == BuildPolicy.MANUAL || !needsBuild(status, plan)) {
      return Optional.empty();
    }
    long generation = Objects.requireNonNullElse(environment.getMetadata().getGeneration(), 0L);
    return Optional.of(new BuildTrigger("g" + generation, false, false));
  }

  /** Whether the image of {@code plan} is neither built nor known to fail. */
  private static boolean needsBuild(EnvironmentStatus status, BuildPlan plan) {
    boolean settled =
        status.getBuildStatus() == BuildStatus.READY
            || status.getBuildStatus() == BuildStatus.FAILED;
    return switch (plan) {
      case BuildPlan.Buildable buildable ->
          !settled || !buildable.hash().equals(status.getBuildHash());
      case BuildPlan.Unbuildable unbuildable ->
          status.getBuildStatus() != BuildStatus.FAILED
              || status.getBuildHash() != null
              || !unbuildable.error().equals(status.getBuildError());
    };
  }
}
