package dev.threadline.operator.webhooks;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.crds.webhook.WebhookEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a finished Run or build announces, and to whom: the event, the endpoints that want it, and
 * the thin {@code data} of the message (REST ids and the outcome, never the conversation).
 */
public final class WebhookEvents {
  /** Events older than this are not announced (an upgraded operator does not replay history). */
  public static final Duration ANNOUNCE_WINDOW = Duration.ofHours(24);

  static final int MAX_ERROR_LENGTH = 1000;

  private WebhookEvents() {}

  /**
   * run.completed, run.failed or run.cancelled for a finished phase; empty while the run is not
   * finished.
   */
  public static Optional<WebhookEvent> ofRun(RunPhase phase) {
    return switch (phase) {
      case COMPLETED -> Optional.of(WebhookEvent.RUN_COMPLETED);
      case FAILED -> Optional.of(WebhookEvent.RUN_FAILED);
      case CANCELLED -> Optional.of(WebhookEvent.RUN_CANCELLED);
      default -> Optional.empty();
    };
  }

  /**
   * build.ready or build.failed once a build has ended ({@code lastBuildAt} set); empty otherwise.
   */
  public static Optional<WebhookEvent> ofBuild(EnvironmentStatus status) {
    if (status == null || status.getLastBuildAt() == null) {
      return Optional.empty();
    }
    if (status.getBuildStatus() == BuildStatus.READY) {
      return Optional.of(WebhookEvent.BUILD_READY);
    }
    if (status.getBuildStatus() == BuildStatus.FAILED) {
      return Optional.of(WebhookEvent.BUILD_FAILED);
    }
    return Optional.empty();
  }

  /**
   * Which build the status reports: {@code buildHash@lastBuildAt} (the hash may be absent for an
   * unbuildable spec).
   */
  public static String buildOccurrence(EnvironmentStatus status) {
    return (status.getBuildHash() == null ? "" : status.getBuildHash())
        + "@"
        + status.getLastBuildAt();
  }

  /** Whether something that happened at {@code when} is too old to announce at {@code now}. */
  public static boolean isTooOld(Optional<Instant> when, Instant now) {
    return when.map(at -> at.plus(ANNOUNCE_WINDOW).isBefore(now)).orElse(false);
  }

  /**
   * The endpoints a run event goes to: those of the run's Agent, its Environment and the Schedule
   * that fired it (each absent when the run names none or the resource does not exist), in that
   * order, each filtered by its {@code events}.
   */
  public static List<WebhookRecipient> runRecipients(
      WebhookEvent event, Agent agent, Environment environment, Schedule schedule) {
    List<WebhookRecipient> recipients = new ArrayList<>();
    add(
        recipients,
        event,
        agent,
        agent == null || agent.getSpec() == null ? null : agent.getSpec().getWebhooks());
    add(
        recipients,
        event,
        environment,
        environment == null || environment.getSpec() == null
            ? null
            : environment.getSpec().getWebhooks());
    add(
        recipients,
        event,
        schedule,
        schedule == null || schedule.getSpec() == null ? null : schedule.getSpec().getWebhooks());
    return recipients;
  }

  /** The endpoints a build event goes to: the Environment's own. */
  public static List<WebhookRecipient> buildRecipients(
      WebhookEvent event, Environment environment) {
    List<WebhookRecipient> recipients = new ArrayList<>();
    add(
        recipients,
        event,
        environment,
        environment.getSpec() == null ? null : environment.getSpec().getWebhooks());
    return recipients;
  }

  private static void add(
      List<WebhookRecipient> recipients,
      WebhookEvent event,
      HasMetadata resource,
      List<WebhookEndpoint> endpoints) {
    if (resource == null || endpoints == null) {
      return;
    }
    for (WebhookEndpoint endpoint : endpoints) {
      if (endpoint != null
          && endpoint.getUrl() != null
          && endpoint.getSecretRef() != null
          && endpoint.wants(event)) {
        recipients.add(new WebhookRecipient(resource, endpoint));
      }
    }
  }

  /**
   * {@code {threadId, runId, agentId?, environmentId?, scheduleId?, status, errorCode?,
   * errorMessage?, completedAt, durationMs?, totalCost?}}; absent values are left out. The
   * environment is the one the run uses, which it may not name (a thread's or the default).
   */
  public static Map<String, Object> runData(Run run, String environmentName, Instant completedAt) {
    RunStatus status = run.getStatus() == null ? new RunStatus() : run.getStatus();
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("threadId", id(run.getSpec().getThread()));
    data.put("runId", id(run.getMetadata().getName()));
    putIfPresent(data, "agentId", id(run.getSpec().getAgent()));
    putIfPresent(data, "environmentId", id(environmentName));
    putIfPresent(data, "scheduleId", id(run.getSpec().getSchedule()));
    data.put("status", RunPhase.of(run).value());
    RunError error = status.getError();
    if (error != null) {
      putIfPresent(data, "errorCode", error.getCode());
      putIfPresent(data, "errorMessage", truncate(error.getMessage(), MAX_ERROR_LENGTH));
    }
    data.put("completedAt", Timestamps.format(completedAt));
    putIfPresent(data, "durationMs", status.getDurationMs());
    putIfPresent(data, "totalCost", status.getCost());
    return data;
  }

  /** {@code {environmentId, buildStatus, buildHash, imageTag?, buildError?, lastBuildAt}}. */
  public static Map<String, Object> buildData(Environment environment) {
    EnvironmentStatus status = environment.getStatus();
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("environmentId", id(environment.getMetadata().getName()));
    data.put("buildStatus", status.getBuildStatus().value());
    putIfPresent(data, "buildHash", status.getBuildHash());
    if (status.getBuildStatus() == BuildStatus.READY) {
      putIfPresent(data, "imageTag", status.getImageTag());
    } else {
      putIfPresent(data, "buildError", truncate(status.getBuildError(), MAX_ERROR_LENGTH));
    }
    data.put("lastBuildAt", Timestamps.normalize(status.getLastBuildAt()));
    return data;
  }

  /** The REST id of a Kubernetes name ({@code run-abc-1} → {@code run_abc-1}); null stays null. */
  static String id(String name) {
    if (name == null || name.isBlank()) {
      return null;
    }
    try {
      return ResourceIds.toId(name);
    } catch (IllegalArgumentException notAName) {
      return name;
    }
  }

  private static void putIfPresent(Map<String, Object> data, String key, Object value) {
    if (value != null) {
      data.put(key, value);
    }
  }

  private static String truncate(String text, int max) {
    return text == null || text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
