package dev.threadline.api.environments;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.core.environment.BuildErrors;
import dev.threadline.core.environment.DockerfileValidator;
import dev.threadline.core.environment.EffectiveDockerfile;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.BuildRequest;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.environment.TestBuildRequest;
import dev.threadline.crds.environment.TestBuildResult;
import dev.threadline.kube.builds.BuildPodLogs;
import dev.threadline.kube.builds.StoredBuildLogs;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Image builds, as the REST API asks for and reports them. The API server never runs a build: it
 * sets {@code spec.buildRequest} (or {@code spec.testBuildRequest}) and the operator acts on it. A
 * request is written under optimistic locking after checking that no build is running or pending,
 * so of two racing {@code POST .../build} calls exactly one is accepted and the other gets 409.
 */
public final class EnvironmentBuilds {
  private static final Logger log = LoggerFactory.getLogger(EnvironmentBuilds.class);
  static final String BUILD_IN_PROGRESS = "Environment build already in progress";
  static final String TEST_BUILD_IN_PROGRESS =
      "A test build of this environment is already in progress";

  private static final char[] ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final KubernetesClient client;
  private final BuildPodLogs podLogs;
  private final EnvironmentStore store;
  private final DockerfilePreview preview;

  EnvironmentBuilds(KubernetesClient client, EnvironmentStore store, DockerfilePreview preview) {
    this.client = client;
    this.podLogs = new BuildPodLogs(client);
    this.store = store;
    this.preview = preview;
  }

  /** Eight random characters: a build request's id, also part of the build Job's name. */
  static String newRequestId() {
    char[] id = new char[8];
    for (int i = 0; i < id.length; i++) {
      id[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return new String(id);
  }

  /**
   * Asks for a build: 409 while one runs (or waits to be taken up); nothing to do when the image of
   * the current configuration is built, unless {@code force}.
   */
  public EnvironmentResponses.BuildAccepted build(
      Tenant tenant, String environmentId, boolean force) {
    String name = EnvironmentService.nameOf(environmentId);
    boolean[] upToDate = new boolean[1];
    Environment updated =
        store
            .update(
                tenant.namespace(),
                name,
                current -> {
                  if (EnvironmentMapper.isBuilding(current)) {
                    throw ApiException.conflict(BUILD_IN_PROGRESS);
                  }
                  upToDate[0] = !force && isUpToDate(current);
                  if (!upToDate[0]) {
                    EnvironmentMapper.spec(current)
                        .setBuildRequest(new BuildRequest(newRequestId(), force));
                  }
                  return current;
                })
            .orElseThrow(() -> EnvironmentService.notFound(environmentId));
    if (upToDate[0]) {
      return new EnvironmentResponses.BuildAccepted(
          "Environment image is up to date; use force=true to rebuild",
          environmentId,
          BuildStatus.READY.value());
    }
    log.info(
        "Environment({}/{}) build {} requested{}",
        tenant.namespace(),
        name,
        updated.getSpec().getBuildRequest().getId(),
        force ? " (forced)" : "");
    return new EnvironmentResponses.BuildAccepted(
        "Build started", environmentId, BuildStatus.BUILDING.value());
  }

  public EnvironmentResponses.BuildState status(Tenant tenant, String environmentId) {
    Environment environment = find(tenant, environmentId);
    EnvironmentStatus status =
        Optional.ofNullable(environment.getStatus()).orElseGet(EnvironmentStatus::new);
    boolean pending = EnvironmentMapper.hasPendingBuildRequest(environment);
    return new EnvironmentResponses.BuildState(
        EnvironmentMapper.buildStatus(environment).value(),
        pending ? null : status.getBuildError(),
        status.getImageTag(),
        Timestamps.normalize(status.getLastBuildAt()),
        testBuild(environment));
  }

  /**
   * The running build's Pod log when there is one, otherwise the last build's stored log (or null).
   */
  public EnvironmentResponses.BuildLogs logs(Tenant tenant, String environmentId) {
    Environment environment = find(tenant, environmentId);
    BuildStatus buildStatus = EnvironmentMapper.buildStatus(environment);
    String namespace = environment.getMetadata().getNamespace();
    String job = environment.getStatus() == null ? null : environment.getStatus().getBuildJob();
    Optional<String> live =
        buildStatus == BuildStatus.BUILDING && job != null
            ? podLogs.read(namespace, job, List.of(BuildPodLogs.BUILD_CONTAINER))
            : Optional.empty();
    String logs =
        live.or(() ->
                StoredBuildLogs.read(
                    client,
                    namespace,
                    environment.getMetadata().getName(),
                    StoredBuildLogs.IMAGE_BUILD_KEY))
            .orElse(null);
    return new EnvironmentResponses.BuildLogs(logs, buildStatus.value());
  }

  /**
   * A test build: the configuration is validated and rendered here; then the operator builds it
   * without cache and without push, and this call waits (bounded) for the outcome.
   */
  /**
   * Asks the operator for a test build (no cache, no push) and answers at once: a failure this
   * server can see without building ({@code {success: false, error}}), or that the build started;
   * its outcome then shows under {@code testBuild} in {@link #status}. A build takes minutes, too
   * long to hold a request thread for.
   */
  public EnvironmentResponses.TestBuildAnswer test(Tenant tenant, String environmentId) {
    Environment environment = find(tenant, environmentId);
    EnvironmentSpec spec = EnvironmentMapper.spec(environment);
    if (!DockerfileValidator.validate(spec.getDockerfileExtensions()).valid()) {
      return EnvironmentResponses.TestBuild.failed(BuildErrors.DOCKERFILE_SYNTAX_ERROR);
    }
    Optional<EffectiveDockerfile> rendered = preview.tryRender(spec);
    if (rendered.isEmpty()) {
      return EnvironmentResponses.TestBuild.failed(
          "The environment cannot be rendered; see GET .../dockerfile");
    }
    String requestId = newRequestId();
    store
        .update(
            tenant.namespace(),
            environment.getMetadata().getName(),
            current -> {
              TestBuildResult running =
                  current.getStatus() == null ? null : current.getStatus().getTestBuild();
              TestBuildRequest pending = EnvironmentMapper.spec(current).getTestBuildRequest();
              boolean notTakenUp =
                  pending != null
                      && (running == null || !pending.getId().equals(running.getRequestId()));
              if (notTakenUp || (running != null && running.getPhase() == BuildStatus.BUILDING)) {
                throw ApiException.conflict(TEST_BUILD_IN_PROGRESS);
              }
              EnvironmentMapper.spec(current).setTestBuildRequest(new TestBuildRequest(requestId));
              return current;
            })
        .orElseThrow(() -> EnvironmentService.notFound(environmentId));
    return new EnvironmentResponses.TestBuildStarted(
        "Test build started; GET /environments/"
            + environmentId
            + "/build/status shows its outcome under testBuild",
        environmentId,
        BuildStatus.BUILDING.value());
  }

  /** The latest test build as the status shows it: pending until the operator takes it up. */
  private static EnvironmentResponses.TestBuildState testBuild(Environment environment) {
    TestBuildRequest requested = EnvironmentMapper.spec(environment).getTestBuildRequest();
    if (requested == null) {
      return null;
    }
    TestBuildResult result =
        environment.getStatus() == null ? null : environment.getStatus().getTestBuild();
    if (result == null || !requested.getId().equals(result.getRequestId())) {
      return EnvironmentResponses.TestBuildState.of(BuildStatus.PENDING, null, null);
    }
    return EnvironmentResponses.TestBuildState.of(
        result.getPhase(), result.getImageTag(), result.getError());
  }

  private boolean isUpToDate(Environment environment) {
    EnvironmentStatus status = environment.getStatus();
    if (status == null
        || status.getBuildStatus() != BuildStatus.READY
        || status.getBuildHash() == null) {
      return false;
    }
    return preview
        .tryRender(EnvironmentMapper.spec(environment))
        .map(dockerfile -> dockerfile.buildHash().value().equals(status.getBuildHash()))
        .orElse(false);
  }

  private Environment find(Tenant tenant, String environmentId) {
    return store
        .find(tenant.namespace(), EnvironmentService.nameOf(environmentId))
        .orElseThrow(() -> EnvironmentService.notFound(environmentId));
  }
}
