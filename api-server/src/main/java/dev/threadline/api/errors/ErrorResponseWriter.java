package dev.threadline.api.errors;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes an error body straight to the servlet response, for code that runs outside Spring MVC's
 * exception handling: filters and the container's error page.
 */
@Component
public class ErrorResponseWriter {
  private static final Logger log = LoggerFactory.getLogger(ErrorResponseWriter.class);

  private final JsonMapper json;

  public ErrorResponseWriter(JsonMapper json) {
    this.json = json;
  }

  public void write(HttpServletResponse response, MappedError error) throws IOException {
    if (response.isCommitted()) {
      // Too late for a status line: the client already got part of a response.
      log.warn(
          "Response already committed; dropping error {} {}",
          error.status(),
          error.body().message());
      return;
    }
    response.resetBuffer();
    response.setStatus(error.status());
    error.headers().forEach(response::setHeader);
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    response.setCharacterEncoding("UTF-8");
    byte[] body = json.writeValueAsBytes(error.body());
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    // Not flushed here: Tomcat commits it at the end of the request, with "Connection: close" when
    // the request's body is left unread (UnreadBodyValve).
  }
}
