package dev.threadline.api.environments;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.core.environment.DockerfileValidator;
import dev.threadline.core.environment.PackageNames;
import dev.threadline.core.environment.PackageRequestException;
import dev.threadline.core.environment.PackageType;
import dev.threadline.core.environment.Packages;
import dev.threadline.crds.environment.BuildRequest;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * What goes into an environment's image: runtimes, packages and Dockerfile extensions. A runtimes
 * change asks for a rebuild (the contract's rule); package and extension changes take effect with
 * the next build.
 */
public final class EnvironmentImageService {
  private final EnvironmentStore store;
  private final DockerfilePreview preview;

  EnvironmentImageService(EnvironmentStore store, DockerfilePreview preview) {
    this.store = store;
    this.preview = preview;
  }

  public EnvironmentResponses.Runtimes runtimes(Tenant tenant, String environmentId) {
    EnvironmentSpec spec = EnvironmentMapper.spec(find(tenant, environmentId));
    return new EnvironmentResponses.Runtimes(
        new LinkedHashMap<>(spec.getRuntimes() == null ? Map.of() : spec.getRuntimes()));
  }

  /** Replaces the runtimes and requests a build, which starts once any running build has ended. */
  public EnvironmentView putRuntimes(
      Tenant tenant, String environmentId, EnvironmentRequests.Runtimes request) {
    if (request == null || request.runtimes() == null) {
      throw ApiException.badRequest("runtimes", "is required (an object of language to version)");
    }
    Map<String, String> runtimes = EnvironmentInputs.runtimes(request.runtimes());
    return change(
        tenant,
        environmentId,
        spec -> {
          spec.setRuntimes(runtimes);
          spec.setBuildRequest(new BuildRequest(EnvironmentBuilds.newRequestId(), false));
        });
  }

  public EnvironmentResponses.PackagesBody packages(Tenant tenant, String environmentId) {
    EnvironmentSpec spec = EnvironmentMapper.spec(find(tenant, environmentId));
    return new EnvironmentResponses.PackagesBody(
        EnvironmentMapper.packagesView(
            EnvironmentInputs.toSpec(EnvironmentInputs.fromSpec(spec.getPackages()))));
  }

  /** Adds packages of one type; names already present are not added twice. */
  public EnvironmentResponses.Installed install(
      Tenant tenant, String environmentId, EnvironmentRequests.InstallPackages request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    PackageType type = packageType(request.type());
    List<String> names = packageNames(request.packages());
    EnvironmentInputs.firstError(PackageNames.validate(type, names));
    List<String> installed = List.copyOf(new LinkedHashSet<>(names));
    EnvironmentView view =
        changePackages(tenant, environmentId, packages -> packages.withAdded(type, installed));
    return new EnvironmentResponses.Installed(view, installed);
  }

  /**
   * Removes a package (by exact entry or by name without version); 404 when it is not installed.
   */
  public EnvironmentResponses.Uninstalled uninstall(
      Tenant tenant, String environmentId, String typeName, String name) {
    PackageType type = packageType(typeName);
    Packages current =
        EnvironmentInputs.fromSpec(
            EnvironmentMapper.spec(find(tenant, environmentId)).getPackages());
    if (current.without(type, name).equals(current)) {
      throw ApiException.notFound(
          "Package " + name + " in the " + type.wireName() + " packages of " + environmentId);
    }
    EnvironmentView view =
        changePackages(tenant, environmentId, packages -> packages.without(type, name));
    return new EnvironmentResponses.Uninstalled(true, view, type.wireName(), name);
  }

  public EnvironmentResponses.Dockerfile dockerfile(Tenant tenant, String environmentId) {
    EnvironmentSpec spec = EnvironmentMapper.spec(find(tenant, environmentId));
    return new EnvironmentResponses.Dockerfile(
        spec.getBaseImage(), spec.getDockerfileExtensions(), preview.render(spec).content());
  }

  /** Replaces the extensions after checking them; invalid ones are a 400 listing the problems. */
  public EnvironmentResponses.Dockerfile putDockerfile(
      Tenant tenant, String environmentId, EnvironmentRequests.Dockerfile request) {
    String extensions = EnvironmentInputs.dockerfileExtensions(requireExtensions(request));
    EnvironmentSpec spec =
        EnvironmentMapper.spec(
            update(tenant, environmentId, current -> current.setDockerfileExtensions(extensions)));
    return new EnvironmentResponses.Dockerfile(
        spec.getBaseImage(), spec.getDockerfileExtensions(), preview.render(spec).content());
  }

  /** Checks extensions without storing them, and shows the Dockerfile they would make. */
  public EnvironmentResponses.DockerfileValidation validate(
      Tenant tenant, String environmentId, EnvironmentRequests.Dockerfile request) {
    String extensions = requireExtensions(request);
    if (extensions.length() > EnvironmentInputs.MAX_EXTENSIONS) {
      throw ApiException.badRequest(
          "dockerfileExtensions",
          "must be at most " + EnvironmentInputs.MAX_EXTENSIONS + " characters");
    }
    EnvironmentSpec candidate = store.copy(EnvironmentMapper.spec(find(tenant, environmentId)));
    candidate.setDockerfileExtensions(extensions.isBlank() ? null : extensions);
    var result = DockerfileValidator.validate(extensions);
    return new EnvironmentResponses.DockerfileValidation(
        result.valid(), result.warnings(), preview.render(candidate).content());
  }

  private EnvironmentView change(
      Tenant tenant, String environmentId, Consumer<EnvironmentSpec> change) {
    return EnvironmentMapper.toView(update(tenant, environmentId, change), tenant.userId());
  }

  /** Changes the stored packages, as read from the spec in their checked form. */
  private EnvironmentView changePackages(
      Tenant tenant, String environmentId, UnaryOperator<Packages> change) {
    return change(
        tenant,
        environmentId,
        spec ->
            spec.setPackages(
                EnvironmentInputs.toSpec(
                    change.apply(EnvironmentInputs.fromSpec(spec.getPackages())))));
  }

  private Environment update(
      Tenant tenant, String environmentId, Consumer<EnvironmentSpec> change) {
    return store
        .update(
            tenant.namespace(),
            EnvironmentService.nameOf(environmentId),
            current -> {
              EnvironmentSpec spec = EnvironmentMapper.spec(current);
              current.setSpec(spec);
              change.accept(spec);
              RestResources.touch(current, store.clock().instant());
              return current;
            })
        .orElseThrow(() -> EnvironmentService.notFound(environmentId));
  }

  private Environment find(Tenant tenant, String environmentId) {
    return store
        .find(tenant.namespace(), EnvironmentService.nameOf(environmentId))
        .orElseThrow(() -> EnvironmentService.notFound(environmentId));
  }

  private static String requireExtensions(EnvironmentRequests.Dockerfile request) {
    if (request == null || request.dockerfileExtensions() == null) {
      throw ApiException.badRequest(
          "dockerfileExtensions", "is required (a string; empty for none)");
    }
    return request.dockerfileExtensions();
  }

  /** The contract's {@code Invalid package type} unless {@code type} is system, python or node. */
  private static PackageType packageType(Object type) {
    try {
      return PackageType.parse(type instanceof String name ? name : null);
    } catch (PackageRequestException invalid) {
      throw ApiException.badRequest(invalid.getMessage());
    }
  }

  /** The contract's {@code packages must be a non-empty array} unless it is one, of strings. */
  private static List<String> packageNames(Object packages) {
    List<?> items = packages instanceof List<?> list ? list : null;
    try {
      PackageNames.requireNonEmpty(items);
    } catch (PackageRequestException invalid) {
      throw ApiException.badRequest(invalid.getMessage());
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof String name)) {
        throw ApiException.badRequest("packages[" + i + "]", "must be a string");
      }
      names.add(name);
    }
    return names;
  }
}
