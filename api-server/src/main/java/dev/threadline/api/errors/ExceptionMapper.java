package dev.threadline.api.errors;

import dev.threadline.api.kubernetes.KubernetesFailures;
import io.fabric8.kubernetes.client.KubernetesClientException;
import jakarta.servlet.ServletException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * The one place that decides what a client sees for any failure. Expected failures keep their
 * status and message; anything unexpected becomes a 500 whose body holds only a reference, while
 * the stack trace goes to the server log under that reference.
 */
@Component
public class ExceptionMapper {
  private static final Logger log = LoggerFactory.getLogger(ExceptionMapper.class);

  /**
   * Maps a failure. {@code request} describes the request (e.g. {@code GET /v1/agents}) for the log
   * only.
   */
  public MappedError map(Throwable failure, String request) {
    return switch (failure) {
      case ApiException api -> MappedError.of(api);
      case HttpMessageNotReadableException unreadable when refusalIn(unreadable) != null ->
          MappedError.of(refusalIn(unreadable));
      case HttpMessageNotReadableException unreadable ->
          RequestBodyErrors.describe(unreadable)
              .map(message -> MappedError.of(ErrorKind.BAD_REQUEST, message))
              .orElseGet(() -> internal(failure, request));
      case MethodArgumentTypeMismatchException mismatch ->
          MappedError.of(
              ErrorKind.BAD_REQUEST,
              mismatch.getName()
                  + " must be "
                  + JsonTypeNames.describe(mismatch.getRequiredType(), false));
      case TypeMismatchException mismatch ->
          MappedError.of(
              ErrorKind.BAD_REQUEST,
              Optional.ofNullable(mismatch.getPropertyName()).orElse("A parameter")
                  + " must be "
                  + JsonTypeNames.describe(mismatch.getRequiredType(), false));
      case MissingServletRequestParameterException missing ->
          MappedError.of(ErrorKind.BAD_REQUEST, missing.getParameterName() + " is required");
      case MissingRequestHeaderException missing ->
          MappedError.of(
              ErrorKind.BAD_REQUEST, "The " + missing.getHeaderName() + " header is required");
      case HttpRequestMethodNotSupportedException method -> methodNotAllowed(method);
      case HttpMediaTypeNotSupportedException media ->
          MappedError.of(
              ErrorKind.UNSUPPORTED_MEDIA_TYPE,
              media.getContentType() == null
                  ? "Content-Type must be application/json"
                  : "Content-Type "
                      + media.getContentType()
                      + " is not supported; use application/json");
      case HttpMediaTypeNotAcceptableException ignored ->
          MappedError.of(ErrorKind.NOT_ACCEPTABLE, "This endpoint produces application/json");
      case NoHandlerFoundException noRoute ->
          MappedError.of(
              ErrorKind.NOT_FOUND,
              "No route for " + noRoute.getHttpMethod() + " " + noRoute.getRequestURL());
      case NoResourceFoundException noRoute ->
          MappedError.of(
              ErrorKind.NOT_FOUND,
              "No route for " + noRoute.getHttpMethod() + " /" + noRoute.getResourcePath());
      case InvalidParameterException invalid -> invalidParameters(invalid);
      case MaxUploadSizeExceededException ignored ->
          MappedError.of(ErrorKind.PAYLOAD_TOO_LARGE, "Request body is too large");
      case KubernetesClientException kubernetes ->
          MappedError.of(KubernetesFailures.translate(kubernetes));
      case ErrorResponse spring when spring.getStatusCode().is4xxClientError() ->
          MappedError.of(ErrorKind.ofStatus(spring.getStatusCode().value()), clientMessage(spring));
      case ServletException servlet
          when servlet.getCause() != null && servlet.getCause() != servlet ->
          map(servlet.getCause(), request);
      default -> internal(failure, request);
    };
  }

  /**
   * Our own refusal raised while the body was read (the body limit), which the JSON reader wrapped
   * as if the body were bad.
   */
  private static ApiException refusalIn(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ApiException api) {
        return api;
      }
    }
    return null;
  }

  /** A 500 for a failure the client cannot act on: only a reference leaves the server. */
  public MappedError internal(Throwable failure, String request) {
    String reference = UUID.randomUUID().toString();
    log.error("Internal error on {} (reference {})", request, reference, failure);
    return MappedError.of(
        ErrorKind.INTERNAL_SERVER_ERROR,
        "An internal error occurred (reference " + reference + ")");
  }

  private static MappedError methodNotAllowed(HttpRequestMethodNotSupportedException method) {
    String[] supported = method.getSupportedMethods();
    Map<String, String> headers =
        supported == null || supported.length == 0
            ? Map.of()
            : Map.of("Allow", Arrays.stream(supported).collect(Collectors.joining(", ")));
    return new MappedError(
        ErrorKind.METHOD_NOT_ALLOWED,
        ErrorBody.of(
            ErrorKind.METHOD_NOT_ALLOWED,
            "Method " + method.getMethod() + " is not allowed on this path"),
        headers);
  }

  /**
   * Tomcat could not parse the parameters: undecodable percent-escapes (400, in any parameter, even
   * one no endpoint reads) or more parameters than it accepts (413).
   */
  private static MappedError invalidParameters(InvalidParameterException invalid) {
    ErrorKind kind = ErrorKind.ofStatus(invalid.getErrorCode());
    return MappedError.of(
        kind,
        kind == ErrorKind.PAYLOAD_TOO_LARGE
            ? "The request has too many parameters"
            : "The query string could not be decoded; percent-encode it as UTF-8");
  }

  /** Spring's own detail texts are generic and safe ("Failed to read request"). */
  private static String clientMessage(ErrorResponse spring) {
    String detail = spring.getBody().getDetail();
    return detail == null || detail.isBlank() ? "The request could not be processed" : detail;
  }
}
