package dev.threadline.api.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerMapping;

/**
 * One {@code SERVER} span per request, named by the HTTP conventions ({@code POST /v1/threads}),
 * continuing a client's {@code traceparent} when it sends one. A streamed answer (SSE) keeps its
 * span open until the stream ends. Only the method, route, path and status are recorded: no
 * headers, query strings or bodies.
 */
final class ServerSpanFilter extends OncePerRequestFilter {
  static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
  static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
  static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

  private static final TextMapGetter<HttpServletRequest> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServletRequest request) {
          return Collections.list(request.getHeaderNames());
        }

        @Override
        public String get(HttpServletRequest request, String name) {
          return request == null ? null : request.getHeader(name);
        }
      };

  private final Tracer tracer;

  ServerSpanFilter(Tracer tracer) {
    this.tracer = tracer;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Context parent =
        W3CTraceContextPropagator.getInstance().extract(Context.root(), request, HEADERS);
    Span span =
        tracer
            .spanBuilder(request.getMethod())
            .setParent(parent)
            .setSpanKind(SpanKind.SERVER)
            .setAttribute(METHOD, request.getMethod())
            .setAttribute(PATH, request.getRequestURI())
            .startSpan();
    boolean async = false;
    try (Scope ignored = span.makeCurrent()) {
      chain.doFilter(request, response);
      async = request.isAsyncStarted();
      if (async) {
        request.getAsyncContext().addListener(new EndWhenDone(span, request, response));
      }
    } catch (IOException | ServletException | RuntimeException e) {
      span.setStatus(StatusCode.ERROR);
      span.setAttribute("error.type", e.getClass().getName());
      throw e;
    } finally {
      if (!async) {
        end(span, request, response);
      }
    }
  }

  private static void end(Span span, HttpServletRequest request, HttpServletResponse response) {
    Object route = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
    if (route != null) {
      span.setAttribute(ROUTE, route.toString());
      span.updateName(request.getMethod() + " " + route);
    }
    int status = response.getStatus();
    span.setAttribute(STATUS, (long) status);
    if (status >= 500) {
      span.setStatus(StatusCode.ERROR);
    }
    span.end();
  }

  /** Ends a streamed request's span when its stream ends, however it ends. */
  private record EndWhenDone(Span span, HttpServletRequest request, HttpServletResponse response)
      implements AsyncListener {
    @Override
    public void onComplete(AsyncEvent event) {
      end(span, request, response);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      span.setAttribute("error.type", "timeout");
    }

    @Override
    public void onError(AsyncEvent event) {
      span.setAttribute("error.type", "stream_error");
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      event.getAsyncContext().addListener(this);
    }
  }
}
