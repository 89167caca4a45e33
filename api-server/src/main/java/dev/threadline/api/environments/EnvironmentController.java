package dev.threadline.api.environments;

import dev.threadline.api.auth.AuthenticatedKey;
import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.idempotency.IdempotencyKeys;
import dev.threadline.api.idempotency.IdempotentRequests;
import dev.threadline.api.idempotency.RequestFingerprint;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.core.environment.RuntimeCatalog;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /environments} (no version prefix, as the contract says). Literal paths ({@code default},
 * {@code runtimes/available}) win over {@code /{environmentId}} in Spring's matching.
 */
@RestController
@RequestMapping(path = "/environments", produces = MediaType.APPLICATION_JSON_VALUE)
class EnvironmentController {
  private final EnvironmentService environments;
  private final EnvironmentImageService images;
  private final EnvironmentBuilds builds;
  private final IdempotentRequests idempotency;

  EnvironmentController(
      EnvironmentService environments,
      EnvironmentImageService images,
      EnvironmentBuilds builds,
      IdempotentRequests idempotency) {
    this.idempotency = idempotency;
    this.environments = environments;
    this.images = images;
    this.builds = builds;
  }

  @GetMapping
  ListEnvelope<EnvironmentSummary> list(
      Tenant tenant,
      PageRequest page,
      @RequestParam(name = "isActive", required = false) String isActive,
      @RequestParam(name = "isDefault", required = false) String isDefault) {
    Boolean active = flag("isActive", isActive);
    return environments.list(tenant, active == null || active, flag("isDefault", isDefault), page);
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<EnvironmentResponses.Single> create(
      Tenant tenant, @RequestBody(required = false) EnvironmentRequests.Create request) {
    EnvironmentView created = environments.create(tenant, request);
    return ResponseEntity.created(URI.create("/environments/" + created.id()))
        .body(new EnvironmentResponses.Single(created));
  }

  /** Created on first use, unless the key may only read: then 404 until one exists. */
  @GetMapping("/default")
  EnvironmentResponses.Single getDefault(Tenant tenant) {
    return new EnvironmentResponses.Single(
        environments.getDefault(tenant, AuthenticatedKey.currentMayWrite("/environments")));
  }

  @GetMapping("/runtimes/available")
  EnvironmentResponses.AvailableRuntimes availableRuntimes() {
    return new EnvironmentResponses.AvailableRuntimes(RuntimeCatalog.available());
  }

  @GetMapping("/{environmentId}")
  EnvironmentResponses.Single get(Tenant tenant, @PathVariable String environmentId) {
    return new EnvironmentResponses.Single(environments.get(tenant, environmentId));
  }

  @PatchMapping(path = "/{environmentId}", consumes = MediaType.APPLICATION_JSON_VALUE)
  EnvironmentResponses.Single update(
      Tenant tenant,
      @PathVariable String environmentId,
      @RequestBody(required = false) EnvironmentRequests.Update request) {
    return new EnvironmentResponses.Single(environments.update(tenant, environmentId, request));
  }

  @DeleteMapping("/{environmentId}")
  EnvironmentResponses.Deleted delete(
      Tenant tenant,
      @PathVariable String environmentId,
      @RequestParam(name = "hard", required = false) String hard) {
    return environments.delete(tenant, environmentId, Boolean.TRUE.equals(flag("hard", hard)));
  }

  @PostMapping("/{environmentId}/set-default")
  EnvironmentResponses.Single setDefault(Tenant tenant, @PathVariable String environmentId) {
    return new EnvironmentResponses.Single(environments.setDefault(tenant, environmentId));
  }

  @GetMapping("/{environmentId}/runtimes")
  EnvironmentResponses.Runtimes runtimes(Tenant tenant, @PathVariable String environmentId) {
    return images.runtimes(tenant, environmentId);
  }

  @PutMapping(path = "/{environmentId}/runtimes", consumes = MediaType.APPLICATION_JSON_VALUE)
  EnvironmentResponses.Single putRuntimes(
      Tenant tenant,
      @PathVariable String environmentId,
      @RequestBody(required = false) EnvironmentRequests.Runtimes request) {
    return new EnvironmentResponses.Single(images.putRuntimes(tenant, environmentId, request));
  }

  @GetMapping("/{environmentId}/packages")
  EnvironmentResponses.PackagesBody packages(Tenant tenant, @PathVariable String environmentId) {
    return images.packages(tenant, environmentId);
  }

  @PostMapping(path = "/{environmentId}/packages", consumes = MediaType.APPLICATION_JSON_VALUE)
  EnvironmentResponses.Installed install(
      Tenant tenant,
      @PathVariable String environmentId,
      @RequestBody(required = false) EnvironmentRequests.InstallPackages request) {
    return images.install(tenant, environmentId, request);
  }

  /** {@code {*name}}: npm's scoped names ({@code @types/node}) hold a slash. */
  @DeleteMapping("/{environmentId}/packages/{type}/{*name}")
  EnvironmentResponses.Uninstalled uninstall(
      Tenant tenant,
      @PathVariable String environmentId,
      @PathVariable String type,
      @PathVariable String name) {
    return images.uninstall(
        tenant, environmentId, type, name.startsWith("/") ? name.substring(1) : name);
  }

  @GetMapping("/{environmentId}/dockerfile")
  EnvironmentResponses.Dockerfile dockerfile(Tenant tenant, @PathVariable String environmentId) {
    return images.dockerfile(tenant, environmentId);
  }

  @PutMapping(path = "/{environmentId}/dockerfile", consumes = MediaType.APPLICATION_JSON_VALUE)
  EnvironmentResponses.Dockerfile putDockerfile(
      Tenant tenant,
      @PathVariable String environmentId,
      @RequestBody(required = false) EnvironmentRequests.Dockerfile request) {
    return images.putDockerfile(tenant, environmentId, request);
  }

  @PostMapping(
      path = "/{environmentId}/dockerfile/validate",
      consumes = MediaType.APPLICATION_JSON_VALUE)
  EnvironmentResponses.DockerfileValidation validate(
      Tenant tenant,
      @PathVariable String environmentId,
      @RequestBody(required = false) EnvironmentRequests.Dockerfile request) {
    return images.validate(tenant, environmentId, request);
  }

  @PostMapping("/{environmentId}/build")
  ResponseEntity<?> build(
      Tenant tenant,
      @PathVariable String environmentId,
      @RequestParam(name = "force", required = false) String force,
      @RequestHeader(name = IdempotencyKeys.HEADER, required = false) String idempotencyKey,
      HttpServletRequest http) {
    return idempotency.executeJson(
        tenant,
        idempotencyKey,
        () -> RequestFingerprint.of(http, null),
        () -> {
          EnvironmentResponses.BuildAccepted accepted =
              builds.build(tenant, environmentId, Boolean.TRUE.equals(flag("force", force)));
          // 202 for a build that runs in the background; 200 when nothing needed to be done.
          return ResponseEntity.status("building".equals(accepted.buildStatus()) ? 202 : 200)
              .body(accepted);
        });
  }

  @GetMapping("/{environmentId}/build/status")
  EnvironmentResponses.BuildState buildStatus(Tenant tenant, @PathVariable String environmentId) {
    return builds.status(tenant, environmentId);
  }

  @GetMapping("/{environmentId}/build/logs")
  EnvironmentResponses.BuildLogs buildLogs(Tenant tenant, @PathVariable String environmentId) {
    return builds.logs(tenant, environmentId);
  }

  /** 202 when the test build started; 200 with {@code {success: false, error}} when it cannot. */
  @PostMapping("/{environmentId}/build/test")
  ResponseEntity<EnvironmentResponses.TestBuildAnswer> testBuild(
      Tenant tenant, @PathVariable String environmentId) {
    EnvironmentResponses.TestBuildAnswer answer = builds.test(tenant, environmentId);
    return ResponseEntity.status(
            answer instanceof EnvironmentResponses.TestBuildStarted ? 202 : 200)
        .body(answer);
  }

  /** A boolean query parameter: absent is null; anything but true/false is a 400 naming it. */
  private static Boolean flag(String name, String value) {
    if (value == null) {
      return null;
    }
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default -> throw ApiException.badRequest(name, "must be true or false");
    };
  }
}
