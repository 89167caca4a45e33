package dev.threadline.api.edge;

import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;

/**
 * The requests that may become a stream (or a {@code stream: false} wait): which one does is only
 * known once the body is read, so a client at its stream cap is refused all of them.
 */
final class StreamRequests {
  /** REST's message POSTs, and every A2A call (its method, in the body, may stream or wait). */
  private static final Pattern POSTED =
      Pattern.compile("/v1/threads(?:/[^/]++/messages)?|/a2a(?:/agents/[^/]++)?");

  private static final Pattern JOINED = Pattern.compile("/v1/threads/[^/]++/stream");

  private StreamRequests() {}

  static boolean mayStream(HttpServletRequest request) {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    return switch (request.getMethod()) {
      case "POST" -> POSTED.matcher(path).matches();
      case "GET" -> JOINED.matcher(path).matches();
      default -> false;
    };
  }
}
