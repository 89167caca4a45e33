package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.StoredObject;
import dev.threadline.local.podlog.PodLog;
import dev.threadline.local.podlog.PodLogSource;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/namespaces/{ns}/pods/{name}/log}: the container's output from the {@link
 * PodLogSource}, whole or followed. A followed log is a chunked response that gets each chunk as
 * the container writes it and ends when the container ends. {@code timestamps}, {@code
 * sinceSeconds} and {@code limitBytes} are ignored.
 */
final class PodLogStreamer {
  private static final Logger LOG = LoggerFactory.getLogger(PodLogStreamer.class);

  private final ObjectStore store;
  private final PodLogSource source;

  PodLogStreamer(ObjectStore store, PodLogSource source) {
    this.store = store;
    this.source = source;
  }

  /** The log to serve, or the error to answer with. */
  record Lookup(PodLog log, ApiResponse error) {}

  /** Finds the Pod and its container's log, with the API server's errors. Blocks on the store. */
  Lookup lookup(ApiPath logPath, ApiRequest request) {
    ApiPath podPath = logPath.withoutSubresource();
    Optional<StoredObject> found = store.get(podPath.key());
    if (found.isEmpty()) {
      return new Lookup(null, KubeStatus.notFound(podPath));
    }
    JsonNode pod = found.get().object();
    List<String> containers = new ArrayList<>();
    pod.path("spec").path("containers").forEach(c -> containers.add(c.path("name").asText()));
    List<String> initContainers = new ArrayList<>();
    pod.path("spec")
        .path("initContainers")
        .forEach(c -> initContainers.add(c.path("name").asText()));
    String container = request.param("container");
    if (container == null || container.isEmpty()) {
      String preferred =
          Json.text(pod, "metadata", "annotations", "kubectl.kubernetes.io/default-container");
      if (preferred != null) {
        container = preferred;
      } else if (containers.size() == 1) {
        container = containers.get(0);
      } else if (containers.size() > 1) {
        return new Lookup(
            null,
            KubeStatus.badRequest(
                "a container name must be specified for pod "
                    + podPath.name()
                    + ", choose one of: "
                    + containers.toString().replace(",", "")));
      }
    } else if (!containers.contains(container) && !initContainers.contains(container)) {
      return new Lookup(
          null,
          KubeStatus.badRequest(
              "container " + container + " is not valid for pod " + podPath.name()));
    }
    Optional<PodLog> log = source.find(podPath.namespace(), podPath.name(), container);
    if (log.isEmpty()) {
      return new Lookup(
          null,
          KubeStatus.badRequest(
              "container \""
                  + container
                  + "\" in pod \""
                  + podPath.name()
                  + "\" is waiting to start: ContainerCreating"));
    }
    return new Lookup(log.get(), null);
  }

  /** Writes the log: all at once, or followed until the container ends or the client leaves. */
  void serve(HttpServerResponse response, PodLog log, ApiRequest request) {
    Long tailLines = tailLines(request);
    response.putHeader("Content-Type", "text/plain");
    if (!request.flag("follow")) {
      response.setStatusCode(200).end(Buffer.buffer(LogTail.lastLines(log.snapshot(), tailLines)));
      return;
    }
    response.setStatusCode(200).setChunked(true);
    response.writeHead();
    new Follow(response, tailLines).start(log);
  }

  private static Long tailLines(ApiRequest request) {
    String value = request.param("tailLines");
    try {
      return value == null ? null : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * One followed log. What the container wrote before the request is gathered first, so that {@code
   * tailLines} can cut it; after that, every chunk goes out as it comes.
   */
  private static final class Follow {
    private final HttpServerResponse response;
    private final Long tailLines;
    private final ByteArrayOutputStream backlog = new ByteArrayOutputStream();
    private boolean catchingUp = true;
    private boolean ended;

    Follow(HttpServerResponse response, Long tailLines) {
      this.response = response;
      this.tailLines = tailLines;
    }

    void start(PodLog log) {
      AutoCloseable handle = log.follow(this::onChunk, this::onEnd);
      response.closeHandler(v -> close(handle));
      synchronized (this) {
        catchingUp = false;
        byte[] backlogTail = LogTail.lastLines(backlog.toByteArray(), tailLines);
        if (backlogTail.length > 0) {
          write(backlogTail);
        }
        if (ended) {
          finish();
        }
      }
    }

    private synchronized void onChunk(byte[] chunk) {
      if (catchingUp) {
        backlog.writeBytes(chunk);
      } else {
        write(chunk);
      }
    }

    private synchronized void onEnd() {
      ended = true;
      if (!catchingUp) {
        finish();
      }
    }

    private void write(byte[] bytes) {
      if (!response.closed() && !response.ended()) {
        response.write(Buffer.buffer(bytes));
      }
    }

    private void finish() {
      if (!response.closed() && !response.ended()) {
        response.end();
      }
    }

    private static void close(AutoCloseable handle) {
      try {
        handle.close();
      } catch (Exception e) {
        LOG.debug("Closing a log follower failed", e);
      }
    }
  }
}
