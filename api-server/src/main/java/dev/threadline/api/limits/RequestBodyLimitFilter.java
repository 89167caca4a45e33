package dev.threadline.api.limits;

import dev.threadline.api.errors.ErrorResponseWriter;
import dev.threadline.api.errors.MappedError;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Holds every request body to its endpoint's limit ({@link BodyLimits}) and to the time it may take
 * to arrive: a declared length over the limit is refused before anything is read (and the body is
 * never read: the connection closes after the 413); a body without one (chunked) is refused when
 * reading passes the limit; a body still arriving after {@code bodyTimeout} is a 408.
 */
final class RequestBodyLimitFilter extends OncePerRequestFilter {
  private final ErrorResponseWriter errors;
  private final Duration bodyTimeout;

  RequestBodyLimitFilter(ErrorResponseWriter errors, Duration bodyTimeout) {
    this.errors = errors;
    this.bodyTimeout = bodyTimeout;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    BodyLimit limit = BodyLimits.of(request);
    if (request.getContentLengthLong() > limit.bytes()) {
      errors.write(response, MappedError.of(limit.refusal()));
      return;
    }
    chain.doFilter(
        new LimitedBodyRequest(request, limit, BodyDeadline.after(bodyTimeout)), response);
  }
}
