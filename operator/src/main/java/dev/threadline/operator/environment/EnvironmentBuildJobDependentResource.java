package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.HashMap;
import java.util.Map;

/**
 * The Kaniko Job of each build ({@link KanikoBuildJob}), annotated with the image tag it builds.
 * The workflow makes it after its build context and NetworkPolicy, so its Pod never runs
 * unconfined.
 */
@KubernetesDependent(informer = @Informer(labelSelector = EnvironmentValues.BUILD_KIND_LABEL))
public class EnvironmentBuildJobDependentResource extends BuildDependentResource<Job> {
  public static final String NAME = "environment-build-job";

  /** On a build Job: the image tag it builds, reported once it succeeds. */
  static final String IMAGE_TAG_ANNOTATION = "threadline.dev/image-tag";

  public EnvironmentBuildJobDependentResource() {
    super(Job.class);
  }

  @Override
  Job desired(
      Environment environment, EnvironmentBuilds.StartedBuild build, EnvironmentBuilds builds) {
    Job job =
        KanikoBuildJob.desired(
            environment, build.kind(), build.name(), build.plan(), builds.settings());
    // Mutable: the framework adds its own annotations.
    job.getMetadata()
        .setAnnotations(new HashMap<>(Map.of(IMAGE_TAG_ANNOTATION, build.plan().imageTag())));
    return job;
  }
}
