package dev.threadline.api.containers;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerPhase;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The workspace, log and health operations of one tenant's container: each looks the container up
 * (404 for another user's), records the use, and — for files — calls its file API, which confines
 * every path to the workspace.
 */
public final class ContainerFiles {
  public static final int DEFAULT_LOG_LINES = 100;
  public static final int MAX_LOG_LINES = 10_000;

  private final ContainerService containers;
  private final ContainerAccess access;
  private final RunnerFiles runner;
  private final KubernetesClient client;
  private final Clock clock;

  ContainerFiles(
      ContainerService containers,
      ContainerAccess access,
      RunnerFiles runner,
      KubernetesClient client,
      Clock clock) {
    this.containers = containers;
    this.access = access;
    this.runner = runner;
    this.client = client;
    this.clock = clock;
  }

  JsonNode list(Tenant tenant, String id, String path) {
    return runner.json(
        endpoint(tenant, id), "GET", "/files", path == null || path.isBlank() ? "." : path, null);
  }

  HttpResponse<InputStream> download(Tenant tenant, String id, String path) {
    return runner.download(endpoint(tenant, id), required(path));
  }

  /**
   * Streams {@code body} to the file API as it arrives; the request body limit ({@code
   * BodyLimits.UPLOAD}, 10 MiB like the file API's own) stops it when it grows past the limit.
   *
   * @param declaredLength the body's Content-Length, or -1 when it is sent in chunks
   */
  JsonNode upload(Tenant tenant, String id, String path, long declaredLength, InputStream body) {
    String workspacePath = required(path);
    ContainerAccess.RunnerEndpoint endpoint = endpoint(tenant, id);
    return runner.json(
        endpoint, "PUT", "/files", workspacePath, new RunnerFiles.Upload(body, declaredLength));
  }

  JsonNode delete(Tenant tenant, String id, String path) {
    return runner.json(endpoint(tenant, id), "DELETE", "/files", required(path), null);
  }

  ContainerResponses.Logs logs(Tenant tenant, String id, String lines) {
    int count = lines(lines);
    Container container = containers.use(tenant, id);
    String pod = container.getStatus() == null ? null : container.getStatus().getPod();
    if (pod == null) {
      return new ContainerResponses.Logs(id, count, List.of());
    }
    String text;
    try {
      text =
          client
              .pods()
              .inNamespace(container.getMetadata().getNamespace())
              .withName(pod)
              .inContainer("runner")
              .tailingLines(count)
              .getLog();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && e.getCode() != 400) {
        throw e;
      }
      text = ""; // the Pod is gone or its container has not started: no log yet
    }
    List<String> logLines =
        text == null || text.isEmpty() ? List.of() : Arrays.asList(text.split("\r?\n"));
    if (logLines.size() > count) {
      logLines = logLines.subList(logLines.size() - count, logLines.size());
    }
    return new ContainerResponses.Logs(id, count, List.copyOf(logLines));
  }

  ContainerResponses.Health health(Tenant tenant, String id) {
    Container container = containers.use(tenant, id);
    ContainerPhase phase = ContainerMapper.phase(container);
    Integer port = container.getStatus() == null ? null : container.getStatus().getPort();
    String checkedAt = Timestamps.format(clock.instant());
    if (phase != ContainerPhase.RUNNING) {
      String message = container.getStatus() == null ? null : container.getStatus().getMessage();
      return new ContainerResponses.Health(false, phase.value(), id, port, checkedAt, message);
    }
    boolean healthy;
    try {
      healthy = runner.healthy(access.endpoint(container));
    } catch (ApiException notReady) {
      healthy = false;
    }
    return new ContainerResponses.Health(
        healthy,
        phase.value(),
        id,
        port,
        checkedAt,
        healthy ? null : "the file API does not answer");
  }

  private ContainerAccess.RunnerEndpoint endpoint(Tenant tenant, String id) {
    return access.endpoint(containers.use(tenant, id));
  }

  private static String required(String path) {
    if (path == null || path.isBlank()) {
      throw ApiException.badRequest("path", "is required");
    }
    return path;
  }

  private static int lines(String raw) {
    if (raw == null) {
      return DEFAULT_LOG_LINES;
    }
    try {
      int lines = Integer.parseInt(raw.strip());
      if (lines >= 1 && lines <= MAX_LOG_LINES) {
        return lines;
      }
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    throw ApiException.badRequest("lines", "must be a whole number between 1 and " + MAX_LOG_LINES);
  }
}
