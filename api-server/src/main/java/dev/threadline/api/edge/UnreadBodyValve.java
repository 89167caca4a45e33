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
 * connection, a worker thread per slow client. Instead the connection closes after the response
 * (which says {@code Connection: close} when it was not sent yet). An engine valve, so that this
 * happens after the host's error report: done earlier, the error report would see an error state on
 * a committed response and cut it off mid-body.
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
      // Only refusals: on a success Tomcat would turn the closing error state into a 500.
      if (!request.isAsyncStarted() && response.getStatus() >= 400) {
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
