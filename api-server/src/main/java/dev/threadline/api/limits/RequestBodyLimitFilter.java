package dev.threadline.api.limits;

import dev.threadline.api.errors.ErrorResponseWriter;
import dev.threadline.api.errors.MappedError;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Holds every request body to its endpoint's limit ({@link BodyLimits}): a declared length over it
 * is refused before anything is read; a body without one (chunked) is refused when reading passes
 * the limit.
 */
final class RequestBodyLimitFilter extends OncePerRequestFilter {
  /** How much of a refused body is read (and dropped) so that the client gets to see the 413. */
  private static final long MAX_DRAINED_BYTES = 64L * 1024 * 1024;

  private final ErrorResponseWriter errors;

  RequestBodyLimitFilter(ErrorResponseWriter errors) {
    this.errors = errors;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    BodyLimit limit = BodyLimits.of(request);
    if (request.getContentLengthLong() > limit.bytes()) {
      drain(request.getInputStream());
      errors.write(response, MappedError.of(limit.refusal()));
      return;
    }
    chain.doFilter(new LimitedBodyRequest(request, limit), response);
  }

  /**
   * Most clients read no answer before their body is through, and a connection closed under them
   * reads as a network failure instead of this refusal.
   */
  private static void drain(InputStream body) {
    try {
      long skipped = 0;
      byte[] sink = new byte[64 * 1024];
      for (int read; skipped < MAX_DRAINED_BYTES && (read = body.read(sink)) >= 0; ) {
        skipped += read;
      }
    } catch (IOException ignored) {
      // the client went away: nobody reads the answer anyway
    }
  }
}
