package dev.threadline.operator.environment;

import dev.threadline.operator.config.SettingValues;
import dev.threadline.operator.network.Cidrs;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.List;
import java.util.Map;

/**
 * How build Pods are sized, what they may pull and where they may connect. In a cluster the values
 * come from {@code THREADLINE_BUILD_*} variables (set by the Helm chart's {@code builds} values).
 *
 * @param cpuRequest {@code THREADLINE_BUILD_CPU_REQUEST}, default 500m
 * @param memoryRequest {@code THREADLINE_BUILD_MEMORY_REQUEST}, default 1Gi
 * @param cpuLimit {@code THREADLINE_BUILD_CPU_LIMIT}, default 2
 * @param memoryLimit {@code THREADLINE_BUILD_MEMORY_LIMIT}, default 4Gi
 * @param ephemeralStorageRequest {@code THREADLINE_BUILD_EPHEMERAL_STORAGE_REQUEST}, default 2Gi
 * @param ephemeralStorageLimit {@code THREADLINE_BUILD_EPHEMERAL_STORAGE_LIMIT}, default 10Gi:
 *     Kaniko unpacks the base image and every layer into its own file system
 * @param allowedImages {@code THREADLINE_BUILD_ALLOWED_IMAGES}, default {@code
 *     docker.io/library/*}: the images a build may start {@code FROM} or {@code COPY --from} (see
 *     {@link BaseImagePolicy}); the operator's base and runner images are always allowed
 * @param egressCidrs {@code THREADLINE_BUILD_EGRESS_CIDRS}: where build Pods may connect (the
 *     registry, package mirrors); empty means every address outside the cluster's ranges
 * @param egressPorts {@code THREADLINE_BUILD_EGRESS_PORTS}, default 80,443
 * @param pusherImage {@code THREADLINE_BUILD_PUSHER_IMAGE}, default {@value #DEFAULT_PUSHER_IMAGE}:
 *     pushes the built image (see {@link KanikoBuildJob})
 * @param layerCache {@code THREADLINE_BUILD_LAYER_CACHE}, default false: Kaniko's layer cache in
 *     {@code <registry>/<namespace>/cache}, which puts the push credentials into the build step
 */
public record BuildPodSettings(
    Quantity cpuRequest,
    Quantity memoryRequest,
    Quantity cpuLimit,
    Quantity memoryLimit,
    Quantity ephemeralStorageRequest,
    Quantity ephemeralStorageLimit,
    List<String> allowedImages,
    List<String> egressCidrs,
    List<Integer> egressPorts,
    String pusherImage,
    boolean layerCache) {
  public static final List<String> DEFAULT_ALLOWED_IMAGES = List.of("docker.io/library/*");
  public static final String DEFAULT_PUSHER_IMAGE = "gcr.io/go-containerregistry/crane:v0.20.6";

  public BuildPodSettings {
    allowedImages = List.copyOf(allowedImages);
    egressCidrs = Cidrs.requireAll(egressCidrs, "THREADLINE_BUILD_EGRESS_CIDRS");
    egressPorts = List.copyOf(egressPorts);
    pusherImage =
        pusherImage == null || pusherImage.isBlank() ? DEFAULT_PUSHER_IMAGE : pusherImage.strip();
  }

  public static BuildPodSettings defaults() {
    return fromEnvironment(Map.of());
  }

  public static BuildPodSettings fromEnvironment(Map<String, String> env) {
    return new BuildPodSettings(
        SettingValues.quantity(env, "THREADLINE_BUILD_CPU_REQUEST", "500m"),
        SettingValues.quantity(env, "THREADLINE_BUILD_MEMORY_REQUEST", "1Gi"),
        SettingValues.quantity(env, "THREADLINE_BUILD_CPU_LIMIT", "2"),
        SettingValues.quantity(env, "THREADLINE_BUILD_MEMORY_LIMIT", "4Gi"),
        SettingValues.quantity(env, "THREADLINE_BUILD_EPHEMERAL_STORAGE_REQUEST", "2Gi"),
        SettingValues.quantity(env, "THREADLINE_BUILD_EPHEMERAL_STORAGE_LIMIT", "10Gi"),
        SettingValues.list(env, "THREADLINE_BUILD_ALLOWED_IMAGES", DEFAULT_ALLOWED_IMAGES),
        SettingValues.list(env, "THREADLINE_BUILD_EGRESS_CIDRS", List.of()),
        SettingValues.ports(env, "THREADLINE_BUILD_EGRESS_PORTS", List.of(80, 443)),
        env.getOrDefault("THREADLINE_BUILD_PUSHER_IMAGE", ""),
        Boolean.parseBoolean(env.getOrDefault("THREADLINE_BUILD_LAYER_CACHE", "false").strip()));
  }

  /** The push step copies a file to the registry: a small share, with the same disk bound. */
  ResourceRequirements pushResources() {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity("100m"))
        .addToRequests("memory", new Quantity("128Mi"))
        .addToRequests("ephemeral-storage", new Quantity("64Mi"))
        .addToLimits("cpu", cpuLimit)
        .addToLimits("memory", new Quantity("512Mi"))
        .addToLimits("ephemeral-storage", new Quantity("256Mi"))
        .build();
  }

  ResourceRequirements resources() {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", cpuRequest)
        .addToRequests("memory", memoryRequest)
        .addToRequests("ephemeral-storage", ephemeralStorageRequest)
        .addToLimits("cpu", cpuLimit)
        .addToLimits("memory", memoryLimit)
        .addToLimits("ephemeral-storage", ephemeralStorageLimit)
        .build();
  }
}
