package dev.threadline.api.edge;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * A request body the application did not read (a 401, 413 or 429 answered on the headers) is never
 * read afterwards: Tomcat would otherwise go on "swallowing" the declared body to keep the
 * connection, a worker thread per slow client. Instead the connection closes after the response,
 * which then says {@code Connection: close}.
 */
final class UnreadBodyValve extends ValveBase {
  UnreadBodyValve() {
    super(true);
  }

  @Override
  public void invoke(Request request, Response response) throws IOException, ServletException {
    try {
      getNext().invoke(request, response);
    } finally {
      if (!request.isAsyncStarted()) {
        closeIfUnread(request);
      }
    }
  }

  private static void closeIfUnread(Request request) {
    AtomicBoolean fullyRead = new AtomicBoolean(true);
    request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, fullyRead);
    if (!fullyRead.get()) {
      request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
    }
  }
}
