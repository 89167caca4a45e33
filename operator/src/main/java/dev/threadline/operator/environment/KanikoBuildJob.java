package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.kube.builds.BuildPodLogs;
import dev.threadline.operator.config.OperatorSettings;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The Job of one build. Kaniko reads the Dockerfile from the build-context ConfigMap mounted at
 * {@code /workspace}; a test build stops there (no cache, no push).
 *
 * <p>An image build has two steps, so that the push credentials stay out of reach of the {@code
 * RUN} steps. Kaniko runs the tenant's {@code RUN} steps inside its own container, where every file
 * it can read — a mounted docker config included — is readable by them, and it has no option to
 * hide one (GoogleContainerTools/kaniko#1861). So Kaniko (an init container) builds without
 * credentials into a tarball on a Pod-local volume, and then a second container, which runs no
 * tenant code, pushes that tarball to {@code <registry>/<namespace>/env-<name>:<hash>} with the
 * push Secret and writes the pushed reference, digest included, to its termination message. The
 * price is Kaniko's remote layer cache, which writes to the registry during the build: it is off
 * unless {@code builds.layerCache} is set, and then the push Secret is mounted into the build step
 * too — safe only when that Secret is the namespace's own, with rights on {@code
 * <registry>/<namespace>/} alone (see helm/README.md).
 *
 * <p>One attempt ({@code backoffLimit: 0}: a failed build is reported, not retried), bounded by
 * {@code activeDeadlineSeconds} (the contract's {@code Build timeout}), no service-account token,
 * the runtime's default seccomp profile, CPU, memory and ephemeral-storage limits, and its own
 * NetworkPolicy ({@link BuildNetworkPolicy}). Kaniko runs as root inside its container: it unpacks
 * the base image's file system, owners and all, and executes the {@code RUN} steps in it; it needs
 * no privileged mode and no privilege escalation beyond that, so both are switched off.
 */
final class KanikoBuildJob {
  static final String CONTAINER = BuildPodLogs.BUILD_CONTAINER;
  static final String PUSH_CONTAINER = "push";
  static final String WORKSPACE = "/workspace";
  static final String OUTPUT = "/output";
  static final String IMAGE_TARBALL = OUTPUT + "/image.tar";
  static final String DOCKER_CONFIG_DIR = "/kaniko/.docker";
  static final String TERMINATION_LOG = "/dev/termination-log";

  /** The pusher runs as the distroless images' non-root user. */
  private static final long PUSH_USER = 65532L;

  private static final String CONTEXT_VOLUME = "build-context";
  private static final String OUTPUT_VOLUME = "output";
  private static final String DOCKER_CONFIG_VOLUME = "docker-config";

  private KanikoBuildJob() {}

  /** The containers whose logs make a build's log, in the order they run. */
  static List<String> containers(BuildKind kind) {
    return kind == BuildKind.IMAGE ? List.of(CONTAINER, PUSH_CONTAINER) : List.of(CONTAINER);
  }

  static Job desired(
      Environment environment,
      BuildKind kind,
      String name,
      BuildPlan.Buildable plan,
      OperatorSettings settings) {
    boolean push = kind == BuildKind.IMAGE;
    boolean layerCache = push && settings.buildPods().layerCache();
    List<Volume> volumes = new ArrayList<>();
    volumes.add(
        new VolumeBuilder()
            .withName(CONTEXT_VOLUME)
            .withNewConfigMap()
            .withName(name)
            .endConfigMap()
            .build());
    List<VolumeMount> kanikoMounts = new ArrayList<>(List.of(readOnly(CONTEXT_VOLUME, WORKSPACE)));
    PodSpecBuilder pod =
        new PodSpecBuilder()
            .withRestartPolicy("Never")
            .withAutomountServiceAccountToken(false)
            .withEnableServiceLinks(false)
            .withNewSecurityContext()
            .withNewSeccompProfile()
            .withType("RuntimeDefault")
            .endSeccompProfile()
            .endSecurityContext();
    if (push) {
      volumes.add(
          new VolumeBuilder()
              .withName(OUTPUT_VOLUME)
              .withNewEmptyDir()
              .withSizeLimit(settings.buildPods().ephemeralStorageLimit())
              .endEmptyDir()
              .build());
      kanikoMounts.add(
          new VolumeMountBuilder().withName(OUTPUT_VOLUME).withMountPath(OUTPUT).build());
      boolean credentials = hasPushSecret(settings);
      if (credentials) {
        volumes.add(dockerConfig(settings.registryPushSecret()));
        if (layerCache) {
          kanikoMounts.add(readOnly(DOCKER_CONFIG_VOLUME, DOCKER_CONFIG_DIR));
        }
      }
      pod.withInitContainers(kaniko(plan, kind, layerCache, kanikoMounts, settings))
          .withContainers(pusher(plan, credentials, settings));
    } else {
      pod.withContainers(kaniko(plan, kind, false, kanikoMounts, settings));
    }
    return new JobBuilder()
        .withMetadata(BuildLabels.metadata(environment, kind, name, plan.hash()))
        .withNewSpec()
        .withBackoffLimit(0)
        .withActiveDeadlineSeconds(settings.buildTimeout().toSeconds())
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(
            BuildLabels.ofPod(
                BuildLabels.of(environment.getMetadata().getName(), kind, plan.hash()), name))
        .endMetadata()
        .withSpec(pod.withVolumes(volumes).build())
        .endTemplate()
        .endSpec()
        .build();
  }

  private static Container kaniko(
      BuildPlan.Buildable plan,
      BuildKind kind,
      boolean layerCache,
      List<VolumeMount> mounts,
      OperatorSettings settings) {
    return new ContainerBuilder()
        .withName(CONTAINER)
        .withImage(settings.builderImage())
        .withArgs(args(plan, kind, layerCache))
        .withWorkingDir(WORKSPACE)
        .withVolumeMounts(mounts)
        .withResources(settings.buildPods().resources())
        .withNewSecurityContext()
        .withPrivileged(false)
        .withAllowPrivilegeEscalation(false)
        .endSecurityContext()
        .build();
  }

  /**
   * Pushes the built tarball; {@code --image-refs} writes {@code <repository>@sha256:…} where the
   * kubelet reads the container's termination message, so the digest needs no log parsing.
   */
  private static Container pusher(
      BuildPlan.Buildable plan, boolean credentials, OperatorSettings settings) {
    List<VolumeMount> mounts = new ArrayList<>(List.of(readOnly(OUTPUT_VOLUME, OUTPUT)));
    ContainerBuilder pusher =
        new ContainerBuilder()
            .withName(PUSH_CONTAINER)
            .withImage(settings.buildPods().pusherImage())
            .withArgs("push", IMAGE_TARBALL, plan.destination(), "--image-refs=" + TERMINATION_LOG)
            .withResources(settings.buildPods().pushResources())
            .withNewSecurityContext()
            .withRunAsNonRoot(true)
            .withRunAsUser(PUSH_USER)
            .withReadOnlyRootFilesystem(true)
            .withAllowPrivilegeEscalation(false)
            .withNewCapabilities()
            .withDrop("ALL")
            .endCapabilities()
            .endSecurityContext();
    if (credentials) {
      mounts.add(readOnly(DOCKER_CONFIG_VOLUME, DOCKER_CONFIG_DIR));
      pusher.addNewEnv().withName("DOCKER_CONFIG").withValue(DOCKER_CONFIG_DIR).endEnv();
    }
    return pusher.withVolumeMounts(mounts).build();
  }

  /** Kaniko's command line; the same flags the local build program understands. */
  static List<String> args(BuildPlan.Buildable plan, BuildKind kind, boolean layerCache) {
    List<String> args = new ArrayList<>();
    args.add("--dockerfile=" + WORKSPACE + "/Dockerfile");
    args.add("--context=dir://" + WORKSPACE);
    args.add("--no-push");
    if (kind == BuildKind.IMAGE) {
      // The push step pushes this tarball; the destination names the image inside it.
      args.add("--destination=" + plan.destination());
      args.add("--tar-path=" + IMAGE_TARBALL);
    }
    if (layerCache && plan.cacheRepository() != null) {
      args.add("--cache=true");
      args.add("--cache-repo=" + plan.cacheRepository());
    } else {
      // Always for a test build: it proves the image builds, and no cached layer may hide a
      // failure.
      args.add("--cache=false");
    }
    return args;
  }

  private static boolean hasPushSecret(OperatorSettings settings) {
    String secret = settings.registryPushSecret();
    return secret != null && !secret.isBlank();
  }

  private static Volume dockerConfig(String secret) {
    return new VolumeBuilder()
        .withName(DOCKER_CONFIG_VOLUME)
        .withNewSecret()
        .withSecretName(secret)
        .withItems(
            new KeyToPathBuilder().withKey(".dockerconfigjson").withPath("config.json").build())
        .endSecret()
        .build();
  }

  private static VolumeMount readOnly(String volume, String path) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(true).build();
  }
}
