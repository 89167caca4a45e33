package dev.threadline.api.edge;

import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;

/**
 * The requests that may become a stream (or a {@code stream: false} wait): which one does is only
 * known once the body is read, so a client at its stream cap is refused all of them. Every MCP
 * request may: a tool call answers as a stream of progress, and a GET is the session's stream.
 */
final class StreamRequests {
  /** REST's message POSTs, every A2A call (its method, in the body, may stream or wait) and MCP. */
  private static final Pattern POSTED =
      Pattern.compile("/v1/threads(?:/[^/]++/messages)?|/a2a(?:/agents/[^/]++)?|/mcp");

  private static final Pattern JOINED = Pattern.compile("/v1/threads/[^/]++/stream|/mcp");

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
