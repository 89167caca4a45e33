package dev.threadline.api.kubernetes;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failed Kubernetes API call means to a REST client: every refusal becomes a 4xx or 503 that
 * says what happened, never a 500. The cluster's own wording (which names service accounts,
 * namespaces and quotas) stays in the server log; the client gets a sentence it can act on.
 */
public final class KubernetesFailures {
  private static final Logger log = LoggerFactory.getLogger(KubernetesFailures.class);

  private KubernetesFailures() {}

  /** The client-facing error for a failed call. */
  public static ApiException translate(KubernetesClientException failure) {
    return switch (failure.getCode()) {
      case 404 -> ApiException.notFound("Resource");
      case 409 ->
          ApiException.conflict(
              "The resource was changed concurrently or already exists; retry the request");
      case 422 -> ApiException.badRequest(invalidMessage(failure.getStatus()));
      case 429 -> tooManyRequests(failure.getStatus());
      case 400 ->
          logged(failure, ApiException.badRequest("The cluster refused the request as invalid"));
      case 413 ->
          logged(
              failure,
              new ApiException(
                  ErrorKind.PAYLOAD_TOO_LARGE,
                  "The resource would be larger than the cluster stores (about 1.5 MiB); send"
                      + " less data"));
      case 403 ->
          logged(
              failure,
              ApiException.serviceUnavailable(
                  "The cluster refused this operation to the service (its permissions or a"
                      + " quota); try again later or tell the administrator"));
      default ->
          logged(
              failure,
              ApiException.serviceUnavailable(
                  failure.getCode() >= 500 || failure.getCode() <= 0
                      ? "The cluster's API is unavailable; try again shortly"
                      : "The cluster refused the operation (HTTP "
                          + failure.getCode()
                          + "); try again later or tell the administrator"));
    };
  }

  /** A refusal the client cannot explain by itself: the operator needs the cluster's words. */
  private static ApiException logged(KubernetesClientException failure, ApiException answer) {
    log.warn(
        "Kubernetes refused a call with {} ({}); answered {}",
        failure.getCode(),
        failure.getStatus() == null ? failure.getMessage() : failure.getStatus().getMessage(),
        answer.kind().status());
    return answer;
  }

  private static String invalidMessage(Status status) {
    List<StatusCause> causes =
        status == null || status.getDetails() == null || status.getDetails().getCauses() == null
            ? List.of()
            : status.getDetails().getCauses();
    String detail =
        causes.stream()
            .map(cause ->
                cause.getField() == null
                    ? cause.getMessage()
                    : cause.getField() + ": " + cause.getMessage())
            .collect(Collectors.joining("; "));
    return detail.isEmpty() ? "The request was rejected as invalid" : "Invalid request: " + detail;
  }

  private static ApiException tooManyRequests(Status status) {
    Integer retryAfter =
        status == null || status.getDetails() == null
            ? null
            : status.getDetails().getRetryAfterSeconds();
    Map<String, String> headers =
        retryAfter == null ? Map.of() : Map.of("Retry-After", retryAfter.toString());
    return new ApiException(ErrorKind.TOO_MANY_REQUESTS, "Too many requests; retry later", headers);
  }
}
