package dev.threadline.api.errors;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Spring Boot's error page: whatever reaches the servlet container's error dispatch (an
 * exception escaping a filter, a {@code sendError} from any component) still answers with our error
 * body, never Boot's default JSON or an HTML page.
 */
@RestController
class FallbackErrorController implements ErrorController {
  private final ExceptionMapper mapper;

  FallbackErrorController(ExceptionMapper mapper) {
    this.mapper = mapper;
  }

  @RequestMapping("/error")
  ResponseEntity<ErrorBody> error(HttpServletRequest request) {
    MappedError error = mapped(request);
    HttpHeaders headers = new HttpHeaders();
    error.headers().forEach(headers::set);
    headers.setContentType(MediaType.APPLICATION_JSON);
    return new ResponseEntity<>(error.body(), headers, HttpStatusCode.valueOf(error.status()));
  }

  private MappedError mapped(HttpServletRequest request) {
    String uri = (String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
    String description = request.getMethod() + " " + (uri == null ? request.getRequestURI() : uri);
    if (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable failure) {
      return mapper.map(failure, description);
    }
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    if (!(code instanceof Integer status)) {
      // Asked for directly, not dispatched to: there is no such route.
      return MappedError.of(ErrorKind.NOT_FOUND, "No route for " + description);
    }
    ErrorKind kind = ErrorKind.ofStatus(status);
    if (kind == ErrorKind.INTERNAL_SERVER_ERROR) {
      return mapper.internal(
          new IllegalStateException("Error dispatch with status " + status), description);
    }
    return MappedError.of(kind, defaultMessage(kind, description));
  }

  private static String defaultMessage(ErrorKind kind, String description) {
    return switch (kind) {
      case NOT_FOUND -> "No route for " + description;
      case METHOD_NOT_ALLOWED -> "Method not allowed on this path";
      case UNAUTHORIZED -> "Missing or invalid API key";
      default -> "The request could not be processed";
    };
  }
}
