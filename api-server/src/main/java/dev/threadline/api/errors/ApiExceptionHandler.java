package dev.threadline.api.errors;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Every exception raised while Spring MVC handles a request (including its own: unknown route,
 * wrong method, unreadable body) ends here and leaves as our error body.
 */
@RestControllerAdvice
class ApiExceptionHandler {
  private static final DisconnectedClientHelper DISCONNECTED =
      new DisconnectedClientHelper(ApiExceptionHandler.class.getName() + ".disconnected");

  private final ExceptionMapper mapper;

  ApiExceptionHandler(ExceptionMapper mapper) {
    this.mapper = mapper;
  }

  @ExceptionHandler(Throwable.class)
  ResponseEntity<ErrorBody> handle(Throwable failure, HttpServletRequest request) {
    // A client that went away (a stream it stopped reading) is not a server error, and there is
    // nobody left to answer: note it quietly.
    if (DISCONNECTED.checkAndLogClientDisconnectedException(failure)) {
      return null;
    }
    MappedError error = mapper.map(failure, RequestDescriptions.describe(request));
    HttpHeaders headers = new HttpHeaders();
    error.headers().forEach(headers::set);
    // An explicit content type makes Spring write JSON even when the client's Accept header
    // asked for something else: the error must reach it either way.
    headers.setContentType(MediaType.APPLICATION_JSON);
    return new ResponseEntity<>(error.body(), headers, HttpStatusCode.valueOf(error.status()));
  }
}
