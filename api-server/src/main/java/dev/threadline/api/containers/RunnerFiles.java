package dev.threadline.api.containers;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.api.limits.BodyLimit;
import dev.threadline.core.containers.ContainerObjects;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls a container's file API ({@code runner serve}). Its refusals come back as ours, same status
 * and message (400 for a path outside the workspace, 404 for a missing file, 409, 413); a file API
 * that does not answer is a 503, a refused token a 500 (that is our fault, not the caller's).
 */
final class RunnerFiles {
  private static final Logger LOG = LoggerFactory.getLogger(RunnerFiles.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http;
  private final Duration timeout;

  RunnerFiles(Duration timeout) {
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    this.timeout = timeout;
  }

  /** An upload's bytes as they arrive, and their length when the client declared it (else -1). */
  record Upload(InputStream body, long length) {
    HttpRequest.BodyPublisher publisher() {
      HttpRequest.BodyPublisher stream = HttpRequest.BodyPublishers.ofInputStream(() -> body);
      return length < 0 ? stream : HttpRequest.BodyPublishers.fromPublisher(stream, length);
    }
  }

  /** A JSON answer of the file API (list, upload, delete); {@code body} may be null. */
  JsonNode json(
      ContainerAccess.RunnerEndpoint endpoint,
      String method,
      String path,
      String workspacePath,
      Upload body) {
    HttpResponse<InputStream> response = send(endpoint, method, path, workspacePath, body);
    try (InputStream in = response.body()) {
      byte[] bytes = in.readAllBytes();
      if (response.statusCode() >= 300) {
        throw refusal(endpoint, response.statusCode(), bytes);
      }
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw unreachable(endpoint, e);
    }
  }

  /** A download: the open stream of the file's bytes, once the file API has said 200. */
  HttpResponse<InputStream> download(
      ContainerAccess.RunnerEndpoint endpoint, String workspacePath) {
    HttpResponse<InputStream> response =
        send(endpoint, "GET", "/files/download", workspacePath, null);
    if (response.statusCode() != 200) {
      try (InputStream in = response.body()) {
        throw refusal(endpoint, response.statusCode(), in.readAllBytes());
      } catch (IOException e) {
        throw unreachable(endpoint, e);
      }
    }
    return response;
  }

  /** Whether the file API answers its health check within a short time. */
  boolean healthy(ContainerAccess.RunnerEndpoint endpoint) {
    HttpRequest request =
        HttpRequest.newBuilder(endpoint.baseUri().resolve("/health"))
            .timeout(Duration.ofSeconds(2))
            .GET()
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private HttpResponse<InputStream> send(
      ContainerAccess.RunnerEndpoint endpoint,
      String method,
      String path,
      String workspacePath,
      Upload body) {
    String query =
        workspacePath == null
            ? ""
            : "?path=" + URLEncoder.encode(workspacePath, StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(endpoint.baseUri() + path + query))
            .timeout(timeout)
            .header(ContainerObjects.TOKEN_HEADER, endpoint.token())
            .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : body.publisher())
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      // An upload stopped at its limit fails the call: that is the client's 413, not our fault.
      BodyLimit.BodyTooLargeException.in(e)
          .ifPresent(tooLarge -> {
            throw tooLarge;
          });
      throw unreachable(endpoint, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApiException.serviceUnavailable(
          "Interrupted while calling container " + endpoint.containerId());
    }
  }

  private static ApiException refusal(
      ContainerAccess.RunnerEndpoint endpoint, int status, byte[] body) {
    String message = message(body);
    if (status == 401) {
      LOG.error("Container {} refused our access token", endpoint.containerId());
      return new ApiException(
          ErrorKind.INTERNAL_SERVER_ERROR,
          "Container " + endpoint.containerId() + " refused the server's access token");
    }
    if (status >= 500) {
      LOG.warn("Container {} file API failed with {}: {}", endpoint.containerId(), status, message);
      return new ApiException(
          ErrorKind.INTERNAL_SERVER_ERROR,
          "The file operation failed in container " + endpoint.containerId());
    }
    return new ApiException(ErrorKind.ofStatus(status), message);
  }

  private static String message(byte[] body) {
    try {
      JsonNode json = JSON.readTree(body);
      JsonNode message = json == null ? null : json.get("message");
      return message == null ? "The file operation was refused" : message.asString();
    } catch (RuntimeException notJson) {
      return "The file operation was refused";
    }
  }

  private static ApiException unreachable(ContainerAccess.RunnerEndpoint endpoint, IOException e) {
    String why =
        e instanceof ConnectException
            ? "does not accept connections yet"
            : e instanceof HttpTimeoutException ? "did not answer in time" : "could not be reached";
    LOG.info("Container {} file API {}: {}", endpoint.containerId(), why, e.toString());
    return ApiException.serviceUnavailable(
        "Container " + endpoint.containerId() + " " + why + "; try again shortly");
  }
}
