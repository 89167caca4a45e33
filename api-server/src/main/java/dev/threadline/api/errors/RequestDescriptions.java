package dev.threadline.api.errors;

import jakarta.servlet.http.HttpServletRequest;

/** "GET /v1/agents" for log lines; never the query string, which may carry user data. */
public final class RequestDescriptions {
  private RequestDescriptions() {}

  public static String describe(HttpServletRequest request) {
    return request.getMethod() + " " + request.getRequestURI();
  }
}
