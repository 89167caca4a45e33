package dev.threadline.api.kubernetes;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a failed Kubernetes API call means to a REST client. Only outcomes the client caused or can
 * act on are translated; everything else (403 from our own RBAC, 5xx, I/O) is an internal error
 * whose details stay in the server log.
 */
public final class KubernetesFailures {
  private KubernetesFailures() {}

  /** The client-facing error, or empty when the failure is internal. */
  public static Optional<ApiException> translate(KubernetesClientException failure) {
    return switch (failure.getCode()) {
      case 404 -> Optional.of(ApiException.notFound("Resource"));
      case 409 ->
          Optional.of(
              ApiException.conflict(
                  "The resource was changed concurrently or already exists; retry the request"));
      case 422 -> Optional.of(ApiException.badRequest(invalidMessage(failure.getStatus())));
      case 429 -> Optional.of(tooManyRequests(failure.getStatus()));
      default -> Optional.empty();
    };
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
