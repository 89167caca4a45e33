package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.config.OperatorSettings;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Kaniko Job of one build. Kaniko reads the Dockerfile from the build-context ConfigMap mounted
 * at {@code /workspace} and, for an image build, pushes {@code <registry>/env-<name>:<hash>} with
 * the layer cache in {@code <registry>/cache}; a test build uses neither cache nor registry.
 *
 * <p>One attempt ({@code backoffLimit: 0}: a failed build is reported, not retried), bounded by
 * {@code activeDeadlineSeconds} (the contract's {@code Build timeout}), no service-account token.
 * Kaniko runs as root inside its container: it unpacks the base image's file system, owners and
 * all, and executes the Dockerfile's {@code RUN} steps in it. It needs no privileged mode and no
 * privilege escalation beyond that, so both are switched off.
 */
final class KanikoBuildJob {
  static final String CONTAINER = "kaniko";
  static final String WORKSPACE = "/workspace";
  static final String DOCKER_CONFIG_DIR = "/kaniko/.docker";
  private static final String CONTEXT_VOLUME = "build-context";
  private static final String DOCKER_CONFIG_VOLUME = "docker-config";

  private KanikoBuildJob() {}

  static Job desired(
      Environment environment,
      BuildKind kind,
      String name,
      BuildPlan.Buildable plan,
      OperatorSettings settings,
      OwnerReference owner) {
    Map<String, String> labels =
        BuildLabels.of(environment.getMetadata().getName(), kind, plan.hash());
    boolean push = kind == BuildKind.IMAGE;
    List<Volume> volumes = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    volumes.add(
        new VolumeBuilder()
            .withName(CONTEXT_VOLUME)
            .withNewConfigMap()
            .withName(name)
            .endConfigMap()
            .build());
    mounts.add(
        new VolumeMountBuilder()
            .withName(CONTEXT_VOLUME)
            .withMountPath(WORKSPACE)
            .withReadOnly(true)
            .build());
    String pushSecret = settings.registryPushSecret();
    if (push && pushSecret != null && !pushSecret.isBlank()) {
      volumes.add(
          new VolumeBuilder()
              .withName(DOCKER_CONFIG_VOLUME)
              .withNewSecret()
              .withSecretName(pushSecret)
              .withItems(
                  new KeyToPathBuilder()
                      .withKey(".dockerconfigjson")
                      .withPath("config.json")
                      .build())
              .endSecret()
              .build());
      mounts.add(
          new VolumeMountBuilder()
              .withName(DOCKER_CONFIG_VOLUME)
              .withMountPath(DOCKER_CONFIG_DIR)
              .withReadOnly(true)
              .build());
    }
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(environment.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(List.of(owner))
        .endMetadata()
        .withNewSpec()
        .withBackoffLimit(0)
        .withActiveDeadlineSeconds(settings.buildTimeout().toSeconds())
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withAutomountServiceAccountToken(false)
        .withEnableServiceLinks(false)
        .withContainers(
            new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(settings.builderImage())
                .withArgs(args(plan, push))
                .withWorkingDir(WORKSPACE)
                .withVolumeMounts(mounts)
                .withResources(
                    new ResourceRequirementsBuilder()
                        .addToRequests("cpu", new Quantity("500m"))
                        .addToRequests("memory", new Quantity("1Gi"))
                        .build())
                .withNewSecurityContext()
                .withPrivileged(false)
                .withAllowPrivilegeEscalation(false)
                .endSecurityContext()
                .build())
        .withVolumes(volumes)
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /** Kaniko's command line; the same flags the local build program understands. */
  static List<String> args(BuildPlan.Buildable plan, boolean push) {
    List<String> args = new ArrayList<>();
    args.add("--dockerfile=" + WORKSPACE + "/Dockerfile");
    args.add("--context=dir://" + WORKSPACE);
    if (push) {
      args.add("--destination=" + plan.destination());
      if (plan.cacheRepository() != null) {
        args.add("--cache=true");
        args.add("--cache-repo=" + plan.cacheRepository());
      }
    } else {
      // A test build proves the image builds: nothing is pushed and no cached layer hides a
      // failure.
      args.add("--no-push");
      args.add("--cache=false");
    }
    return args;
  }
}
