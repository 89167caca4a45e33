package dev.threadline.api.edge;

import dev.threadline.api.errors.ErrorBody;
import dev.threadline.api.errors.ErrorKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The error body for what Tomcat refuses before the application sees a request (a malformed request
 * line, a raw {@code \} in the path, headers over the limit): the API's {@code {error, message}}
 * instead of Tomcat's HTML page. Errors the application answers already have a body and are left
 * alone.
 */
final class JsonErrorReportValve extends ErrorReportValve {
  private static final Logger log = LoggerFactory.getLogger(JsonErrorReportValve.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final long maxHeaderBytes;

  JsonErrorReportValve(long maxHeaderBytes) {
    this.maxHeaderBytes = maxHeaderBytes;
  }

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(false);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get()) {
      return;
    }
    ErrorKind kind = ErrorKind.ofStatus(status);
    try {
      response.setContentType("application/json");
      response.setCharacterEncoding("UTF-8");
      PrintWriter writer = response.getReporter();
      if (writer != null) {
        writer.write(JSON.writeValueAsString(ErrorBody.of(kind, message(kind))));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException failed) {
      log.debug("Could not write the error body of a refused request", failed);
    }
  }

  private String message(ErrorKind kind) {
    return switch (kind) {
      case BAD_REQUEST ->
          "Malformed request: the request line, path or headers cannot be read (characters such"
              + " as \\ must be percent-encoded; the request line and headers may have at most "
              + maxHeaderBytes
              + " bytes)";
      case NOT_FOUND -> "No route for this request";
      case INTERNAL_SERVER_ERROR -> "The request could not be processed";
      default -> kind.error();
    };
  }
}
