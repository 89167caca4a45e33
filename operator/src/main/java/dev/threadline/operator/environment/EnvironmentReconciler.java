package dev.threadline.operator.environment;

import dev.threadline.core.environment.BuildErrors;
import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.environment.TestBuildRequest;
import dev.threadline.crds.environment.TestBuildResult;
import dev.threadline.kube.builds.BuildPodLogs;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.status.ReconcileErrors;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds Environment images. A build ({@code building}) starts for a new {@code spec.buildRequest},
 * and, under {@code spec.buildPolicy: OnChange} (the default), whenever the image of the current
 * spec is not built ({@link BuildTrigger}); under {@code Manual} an Environment stays {@code
 * pending} until a build request. A build is the effective Dockerfile in a ConfigMap, a
 * NetworkPolicy and a Kaniko Job; the Job's end makes it {@code ready} (imageTag, lastBuildAt) or
 * {@code failed} (buildError classified from the build Pod's log). {@code spec.testBuildRequest}
 * runs the same build without cache or push and reports in {@code status.testBuild}.
 *
 * <p>A reconcile reads: follow the running builds and take up new requests (computing the next
 * status), invoke the workflow of the build objects ({@link EnvironmentBuilds}: made for the builds
 * started now, kept for the builds the status names, the rest deleted), then write the status once,
 * only when it changed. Build objects are named per build request, so a restarted (or a second)
 * operator adopts a Job instead of starting another.
 */
@Workflow(
    explicitInvocation = true,
    dependents = {
      @Dependent(
          name = EnvironmentBuildContextDependentResource.NAME,
          type = EnvironmentBuildContextDependentResource.class),
      @Dependent(
          name = EnvironmentBuildNetworkPolicyDependentResource.NAME,
          type = EnvironmentBuildNetworkPolicyDependentResource.class),
      @Dependent(
          name = EnvironmentBuildJobDependentResource.NAME,
          type = EnvironmentBuildJobDependentResource.class,
          dependsOn = {
            EnvironmentBuildContextDependentResource.NAME,
            EnvironmentBuildNetworkPolicyDependentResource.NAME
          })
    })
@ControllerConfiguration(name = "environment")
public class EnvironmentReconciler implements Reconciler<Environment> {
  private static final Logger LOG = LoggerFactory.getLogger(EnvironmentReconciler.class);

  private static final int ERROR_LINES = 5;

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final BuildPlanner planner;
  private final BuildPodLogs podLogs;
  private final BuildLogConfigMap logStore;
  private final Conditions conditions;
  private final Clock clock;
  private final OperatorMetrics metrics;
  private final KubernetesEvents events;

  public EnvironmentReconciler(
      KubernetesClient client,
      OperatorSettings settings,
      Conditions conditions,
      Clock clock,
      OperatorMetrics metrics,
      KubernetesEvents events) {
    this.client = client;
    this.settings = settings;
    this.planner = new BuildPlanner(settings);
    this.podLogs = new BuildPodLogs(client);
    this.logStore = new BuildLogConfigMap(client);
    this.conditions = conditions;
    this.clock = clock;
    this.events = events;
    this.metrics = metrics;
  }

  @Override
  public UpdateControl<Environment> reconcile(
      Environment environment, Context<Environment> context) {
    EnvironmentStatus current =
        Optional.ofNullable(environment.getStatus()).orElseGet(EnvironmentStatus::new);
    EnvironmentStatus next = client.getKubernetesSerialization().clone(current);
    Set<Job> jobs = context.getSecondaryResources(Job.class);
    BuildPlan plan = planner.plan(environment);
    List<EnvironmentBuilds.StartedBuild> started = new ArrayList<>();

    followImageBuild(environment, next, jobs);
    takeUpBuildRequest(environment, next, plan, started);
    followTestBuild(environment, next, jobs);
    takeUpTestBuildRequest(environment, next, plan, started);
    if (next.getBuildStatus() == null) {
      next.setBuildStatus(BuildStatus.PENDING);
      if (plan instanceof BuildPlan.Buildable buildable) {
        next.setBuildHash(buildable.hash());
      }
    }
    long generation = Objects.requireNonNullElse(environment.getMetadata().getGeneration(), 0L);
    next.setObservedGeneration(generation);
    next.setConditions(readyCondition(next, generation));
    // Before the status names a new build, its objects exist: a restart between the two adopts
    // them (same names) instead of reporting a build that never started.
    new EnvironmentBuilds(started, namesInUse(next), settings).putInto(context);
    context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();

    String before = client.getKubernetesSerialization().asJson(current);
    if (before.equals(client.getKubernetesSerialization().asJson(next))) {
      return UpdateControl.noUpdate();
    }
    environment.setStatus(next);
    return UpdateControl.patchStatus(environment);
  }

  private void followImageBuild(Environment environment, EnvironmentStatus status, Set<Job> jobs) {
    if (status.getBuildStatus() != BuildStatus.BUILDING || status.getBuildJob() == null) {
      return;
    }
    Optional<Job> job = find(environment, jobs, status.getBuildJob());
    if (job.isEmpty()) {
      finishImageBuild(
          environment,
          status,
          BuildJobState.FAILED,
          null,
          "The build Job was deleted before it finished");
      return;
    }
    BuildJobState state = BuildJobState.of(job.get());
    if (state.isFinished()) {
      finishImageBuild(environment, status, state, job.get(), null);
    }
  }

  private void finishImageBuild(
      Environment environment,
      EnvironmentStatus status,
      BuildJobState state,
      Job job,
      String knownError) {
    String log = job == null ? "" : readAndStoreLog(environment, BuildKind.IMAGE, job);
    status.setLastBuildAt(Timestamps.format(clock.instant()));
    if (state == BuildJobState.SUCCEEDED) {
      status.setBuildStatus(BuildStatus.READY);
      status.setImageTag(
          annotation(job, EnvironmentBuildJobDependentResource.IMAGE_TAG_ANNOTATION));
      status.setImageDigest(
          podLogs
              .terminationMessage(
                  job.getMetadata().getNamespace(),
                  job.getMetadata().getName(),
                  KanikoBuildJob.PUSH_CONTAINER)
              .flatMap(BuildDigests::of)
              .orElse(null));
      status.setBuildError(null);
      events.normal(
          client,
          environment,
          "BuildSucceeded",
          "Image " + status.getImageTag() + " is built (Job " + status.getBuildJob() + ")");
    } else {
      status.setBuildStatus(BuildStatus.FAILED);
      status.setBuildError(knownError != null ? knownError : failureMessage(log, state));
      events.warning(client, environment, "BuildFailed", status.getBuildError());
    }
    if (job != null) {
      recordBuild(BuildKind.IMAGE, status.getBuildStatus(), job);
    }
    try (ResourceLogContext logged = ResourceLogContext.of(environment)) {
      LOG.info("build {} {}", status.getBuildJob(), status.getBuildStatus().value());
    }
  }

  private void recordBuild(BuildKind kind, BuildStatus outcome, Job job) {
    Timestamps.parse(job.getMetadata().getCreationTimestamp())
        .ifPresent(created ->
            metrics.buildFinished(
                kind.label(), outcome.value(), Duration.between(created, clock.instant())));
  }

  private void takeUpBuildRequest(
      Environment environment,
      EnvironmentStatus status,
      BuildPlan plan,
      List<EnvironmentBuilds.StartedBuild> started) {
    Optional<BuildTrigger> next = BuildTrigger.of(environment, status, plan);
    if (next.isEmpty()) {
      return;
    }
    BuildTrigger trigger = next.get();
    if (trigger.requested()) {
      status.setBuildRequestId(trigger.requestId());
    }
    String who =
        "Environment("
            + environment.getMetadata().getNamespace()
            + "/"
            + environment.getMetadata().getName()
            + ")";
    if (plan instanceof BuildPlan.Unbuildable unbuildable) {
      status.setBuildStatus(BuildStatus.FAILED);
      status.setBuildError(unbuildable.error());
      status.setBuildHash(null); // nothing was rendered to build
      status.setLastBuildAt(Timestamps.format(clock.instant()));
      LOG.info("{} cannot be built: {}", who, unbuildable.error());
      events.warning(client, environment, "BuildFailed", unbuildable.error());
      return;
    }
    BuildPlan.Buildable buildable = (BuildPlan.Buildable) plan;
    boolean upToDate =
        status.getBuildStatus() == BuildStatus.READY
            && buildable.hash().equals(status.getBuildHash());
    if (upToDate && !trigger.force()) {
      LOG.info(
          "{} is up to date ({}); build request {} needs no build",
          who,
          buildable.hash(),
          trigger.requestId());
      return;
    }
    String name =
        BuildNames.job(
            environment.getMetadata().getName(),
            BuildKind.IMAGE,
            buildable.hash(),
            trigger.requestId());
    started.add(new EnvironmentBuilds.StartedBuild(BuildKind.IMAGE, name, buildable));
    status.setBuildStatus(BuildStatus.BUILDING);
    status.setBuildJob(name);
    status.setBuildHash(buildable.hash());
    status.setBuildError(null);
    LOG.info("{} building {} in Job {}", who, buildable.imageTag(), name);
    events.normal(
        client,
        environment,
        "BuildStarted",
        (trigger.requested() ? "Build request " + trigger.requestId() : "The changed spec")
            + " builds image "
            + buildable.imageTag()
            + " in Job "
            + name);
  }

  private void followTestBuild(Environment environment, EnvironmentStatus status, Set<Job> jobs) {
    TestBuildResult test = status.getTestBuild();
    if (test == null || test.getPhase() != BuildStatus.BUILDING || test.getJob() == null) {
      return;
    }
    Optional<Job> job = find(environment, jobs, test.getJob());
    BuildJobState state = job.map(BuildJobState::of).orElse(BuildJobState.FAILED);
    if (!state.isFinished()) {
      return;
    }
    String log = job.map(j -> readAndStoreLog(environment, BuildKind.TEST, j)).orElse("");
    test.setFinishedAt(Timestamps.format(clock.instant()));
    if (state == BuildJobState.SUCCEEDED) {
      test.setPhase(BuildStatus.READY);
    } else {
      test.setPhase(BuildStatus.FAILED);
      test.setError(
          job.isEmpty()
              ? "The test build Job was deleted before it finished"
              : failureMessage(log, state));
    }
    job.ifPresent(j -> recordBuild(BuildKind.TEST, test.getPhase(), j));
  }

  private void takeUpTestBuildRequest(
      Environment environment,
      EnvironmentStatus status,
      BuildPlan plan,
      List<EnvironmentBuilds.StartedBuild> started) {
    TestBuildRequest request =
        environment.getSpec() == null ? null : environment.getSpec().getTestBuildRequest();
    TestBuildResult previous = status.getTestBuild();
    if (request == null
        || request.getId() == null
        || (previous != null && request.getId().equals(previous.getRequestId()))
        || (previous != null && previous.getPhase() == BuildStatus.BUILDING)) {
      return;
    }
    TestBuildResult test = new TestBuildResult();
    test.setRequestId(request.getId());
    if (plan instanceof BuildPlan.Unbuildable unbuildable) {
      test.setPhase(BuildStatus.FAILED);
      test.setError(unbuildable.error());
      test.setFinishedAt(Timestamps.format(clock.instant()));
    } else {
      BuildPlan.Buildable buildable = (BuildPlan.Buildable) plan;
      String name =
          BuildNames.job(
              environment.getMetadata().getName(),
              BuildKind.TEST,
              buildable.hash(),
              request.getId());
      started.add(new EnvironmentBuilds.StartedBuild(BuildKind.TEST, name, buildable));
      test.setJob(name);
      test.setPhase(BuildStatus.BUILDING);
      test.setImageTag(buildable.imageTag());
    }
    status.setTestBuild(test);
  }

  private Optional<Job> find(Environment environment, Set<Job> jobs, String name) {
    Optional<Job> cached =
        jobs.stream().filter(job -> name.equals(job.getMetadata().getName())).findFirst();
    if (cached.isPresent()) {
      return cached;
    }
    // Just created: the cache may not have it yet.
    return Optional.ofNullable(
        client
            .batch()
            .v1()
            .jobs()
            .inNamespace(environment.getMetadata().getNamespace())
            .withName(name)
            .get());
  }

  private String readAndStoreLog(Environment environment, BuildKind kind, Job job) {
    String log =
        podLogs
            .read(
                job.getMetadata().getNamespace(),
                job.getMetadata().getName(),
                KanikoBuildJob.containers(kind))
            .orElse("");
    try {
      logStore.store(environment, kind, log, ownerReference(environment));
    } catch (KubernetesClientException e) {
      try (ResourceLogContext logged = ResourceLogContext.of(environment)) {
        LOG.warn("could not keep its {} log: {}", kind.label(), e.getMessage());
      }
    }
    return log;
  }

  /** The contract's message when the log shows a known cause, otherwise the log's last lines. */
  static String failureMessage(String log, BuildJobState state) {
    Optional<String> known = BuildErrors.classify(log, state == BuildJobState.TIMED_OUT);
    if (known.isPresent()) {
      return known.get();
    }
    String tail = BuildPodLogs.lastLines(log, ERROR_LINES);
    return tail.isEmpty() ? "The build failed without a log" : tail;
  }

  private List<io.fabric8.kubernetes.api.model.Condition> readyCondition(
      EnvironmentStatus status, long generation) {
    return conditions.summarise(status.getConditions(), summary(status), generation);
  }

  /**
   * Built is ready; building reconciles; a failed build is stalled until the spec or a build
   * request changes; pending (Manual) waits for a build request.
   */
  static Conditions.Summary summary(EnvironmentStatus status) {
    return switch (status.getBuildStatus()) {
      case READY ->
          Conditions.Summary.ready("Built", "Image " + status.getImageTag() + " is built.");
      case BUILDING ->
          Conditions.Summary.reconciling(
              Conditions.UNKNOWN,
              "Building",
              "Job " + status.getBuildJob() + " is building the image.");
      case FAILED -> Conditions.Summary.stalled("BuildFailed", status.getBuildError());
      case PENDING ->
          Conditions.Summary.waiting("NotBuilt", "No image has been built yet; request a build.");
    };
  }

  private static Set<String> namesInUse(EnvironmentStatus status) {
    Set<String> names = new HashSet<>();
    if (status.getBuildJob() != null) {
      names.add(status.getBuildJob());
    }
    if (status.getTestBuild() != null && status.getTestBuild().getJob() != null) {
      names.add(status.getTestBuild().getJob());
    }
    return names;
  }

  private static OwnerReference ownerReference(Environment environment) {
    return OwnerReferences.controller(environment);
  }

  private static String annotation(Job job, String key) {
    Map<String, String> annotations = job.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  @Override
  public ErrorStatusUpdateControl<Environment> updateErrorStatus(
      Environment environment, Context<Environment> context, Exception e) {
    return ReconcileErrors.readyFalse(conditions, environment, EnvironmentStatus::new, e);
  }
}
