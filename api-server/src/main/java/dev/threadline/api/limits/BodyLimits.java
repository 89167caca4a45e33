package dev.threadline.api.limits;

import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;

/**
 * The body limit of each endpoint (docs/limits.md): file uploads 10 MiB, every other body (JSON) 4
 * MiB. The JSON limit sits above the largest valid body (a schedule's 1 MiB task, a message with
 * its attachments) so that an oversized field is still a 400 naming it, and far below what would
 * strain the heap when many requests arrive at once.
 */
public final class BodyLimits {
  public static final BodyLimit JSON = new BodyLimit(4L * 1024 * 1024, "Request bodies");
  public static final BodyLimit UPLOAD = new BodyLimit(10L * 1024 * 1024, "Uploads");

  private static final Pattern UPLOAD_PATH = Pattern.compile("/api/v1/containers/[^/]++/files");

  private BodyLimits() {}

  static BodyLimit of(HttpServletRequest request) {
    return "PUT".equals(request.getMethod())
            && UPLOAD_PATH.matcher(request.getRequestURI()).matches()
        ? UPLOAD
        : JSON;
  }
}
