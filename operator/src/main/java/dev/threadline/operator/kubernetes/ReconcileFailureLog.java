package dev.threadline.operator.kubernetes;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * How a failing reconcile is logged. java-operator-sdk logs the whole stack trace at every retry of
 * a reconcile that keeps failing (its {@code EventProcessor}, at WARN); this filter takes those
 * lines and logs, instead, one line per attempt — the resource, the attempt, the exception and its
 * causes in words — and the stack trace only at the first failure of a series (the framework's
 * first attempt, before it has a retry to count). Installed on logback's context when logback is
 * the logging backend, and again after the context is reset (Spring Boot resets it at start).
 */
public final class ReconcileFailureLog extends TurboFilter {
  /** The framework's logger of failed reconciles. */
  static final String FRAMEWORK_LOGGER =
      "io.javaoperatorsdk.operator.processing.event.EventProcessor";

  /** Causes named in a failure's line, at most; and characters of each message. */
  private static final int MAX_CAUSES = 5;

  private static final int MAX_MESSAGE = 300;

  private static final Logger LOG = LoggerFactory.getLogger(ReconcileFailureLog.class);

  private ReconcileFailureLog() {}

  /** Installs the filter on logback's context, once; does nothing under another backend. */
  public static void install() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      synchronized (ReconcileFailureLog.class) {
        if (context.getCopyOfListenerList().stream().noneMatch(Reinstall.class::isInstance)) {
          context.addListener(new Reinstall());
          addTo(context);
        }
      }
    }
  }

  private static void addTo(LoggerContext context) {
    if (context.getTurboFilterList().stream().noneMatch(ReconcileFailureLog.class::isInstance)) {
      ReconcileFailureLog filter = new ReconcileFailureLog();
      filter.setContext(context);
      filter.start();
      context.addTurboFilter(filter);
    }
  }

  @Override
  public FilterReply decide(
      Marker marker,
      ch.qos.logback.classic.Logger logger,
      Level level,
      String format,
      Object[] params,
      Throwable t) {
    if (!FRAMEWORK_LOGGER.equals(logger.getName()) || !level.isGreaterOrEqual(Level.WARN)) {
      return FilterReply.NEUTRAL;
    }
    Throwable failure = t != null ? t : lastThrowable(params);
    if (failure == null || params == null || params.length == 0) {
      return FilterReply.NEUTRAL;
    }
    Object scope = params[0];
    int attempt = attempt(scope);
    String line =
        "Reconcile of "
            + resource(scope)
            + " failed (attempt "
            + attempt
            + "): "
            + inWords(failure);
    if (attempt == 1) {
      LOG.warn("{}; retried with backoff", line, failure);
    } else {
      LOG.warn("{}; retried with backoff (stack trace at attempt 1)", line);
    }
    return FilterReply.DENY;
  }

  /**
   * The exception and its causes in words: {@code IllegalStateException: boom; caused by
   * IOException: closed}, each message cut, at most {@value #MAX_CAUSES}, a cycle stopped.
   */
  static String inWords(Throwable failure) {
    List<String> parts = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable cause = failure;
        cause != null && parts.size() < MAX_CAUSES && seen.add(cause);
        cause = cause.getCause()) {
      String message = cause.getMessage();
      if (message != null && message.length() > MAX_MESSAGE) {
        message = message.substring(0, MAX_MESSAGE) + "…";
      }
      parts.add(
          cause.getClass().getSimpleName()
              + (message == null ? "" : ": " + message.replaceAll("\\s+", " ")));
    }
    return String.join("; caused by ", parts);
  }

  private static Throwable lastThrowable(Object[] params) {
    return params != null && params.length > 0 && params[params.length - 1] instanceof Throwable t
        ? t
        : null;
  }

  /**
   * Which attempt failed: 1 when the framework's execution had no retry yet, else its count of
   * retries plus one. (Its execution scope is not public API: read by its public accessor.)
   */
  private static int attempt(Object scope) {
    Object retry = call(scope, "getRetryInfo");
    Object count = retry == null ? null : call(retry, "getAttemptCount");
    return count instanceof Integer n ? n + 1 : 1;
  }

  private static String resource(Object scope) {
    if (call(scope, "getResource") instanceof HasMetadata resource) {
      String namespace = resource.getMetadata().getNamespace();
      return resource.getKind()
          + " "
          + (namespace == null ? "" : namespace + "/")
          + resource.getMetadata().getName();
    }
    return String.valueOf(scope);
  }

  private static Object call(Object target, String accessor) {
    if (target == null) {
      return null;
    }
    try {
      Method method = target.getClass().getMethod(accessor);
      method.setAccessible(true);
      return method.invoke(target);
    } catch (ReflectiveOperationException | RuntimeException absent) {
      return null;
    }
  }

  /** Puts the filter back when the context is reset (a reset drops every turbo filter). */
  private static final class Reinstall implements LoggerContextListener {
    @Override
    public boolean isResetResistant() {
      return true;
    }

    @Override
    public void onReset(LoggerContext context) {
      addTo(context);
    }

    @Override
    public void onStart(LoggerContext context) {}

    @Override
    public void onStop(LoggerContext context) {}

    @Override
    public void onLevelChange(ch.qos.logback.classic.Logger logger, Level level) {}
  }
}
