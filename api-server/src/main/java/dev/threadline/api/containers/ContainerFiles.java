package dev.threadline.api.containers;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerPhase;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
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
  /** 10 MiB: the file API's limit too. Uploads pass through this server whole. */
  public static final int MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

  /** How much of a refused upload is read (and dropped) so that the client gets to see the 413. */
  private static final long MAX_DRAINED_BYTES = 64L * 1024 * 1024;

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

  JsonNode upload(Tenant tenant, String id, String path, long declaredLength, InputStream body) {
    String workspacePath = required(path);
    if (declaredLength > MAX_UPLOAD_BYTES) {
      throw tooLarge(body);
    }
    ContainerAccess.RunnerEndpoint endpoint = endpoint(tenant, id);
    return runner.json(endpoint, "PUT", "/files", workspacePath, readBounded(body));
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

  private static byte[] readBounded(InputStream body) {
    try {
      byte[] bytes = body.readNBytes(MAX_UPLOAD_BYTES + 1);
      if (bytes.length > MAX_UPLOAD_BYTES) {
        throw tooLarge(body);
      }
      return bytes;
    } catch (IOException e) {
      throw ApiException.badRequest("The upload could not be read: " + e.getMessage());
    }
  }

  /**
   * The 413, after reading (and dropping) what the client still sends, up to a bound: most clients
   * read no answer before their upload is through, and a connection closed under them reads as a
   * network failure instead of this refusal.
   */
  private static ApiException tooLarge(InputStream body) {
    try {
      long skipped = 0;
      byte[] sink = new byte[64 * 1024];
      for (int read; skipped < MAX_DRAINED_BYTES && (read = body.read(sink)) >= 0; ) {
        skipped += read;
      }
    } catch (IOException ignored) {
      // the client went away: nobody reads the answer anyway
    }
    return new ApiException(
        ErrorKind.PAYLOAD_TOO_LARGE,
        "Uploads may have at most " + MAX_UPLOAD_BYTES + " bytes (10 MiB)");
  }
}
