package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.threadline.operator.support.BareOperators;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A reconcile that fails three times, then succeeds, under the framework's own retry: one line per
 * failure, and one stack trace in all.
 */
@EnableKubernetesMockClient(crud = true)
class ReconcileFailureLogMockServerTest {
  private static final int FAILURES = 3;

  static KubernetesClient client;

  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private Operator operator;

  @BeforeEach
  void capture() {
    ReconcileFailureLog.install();
    logged.setContext(context);
    logged.start();
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(logged);
  }

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(logged);
  }

  @Test
  void aReconcileFailingRepeatedlyLogsALinePerAttemptAndTheStackTraceOnce() {
    Failing reconciler = new Failing();
    operator = BareOperators.on(client);
    operator.register(
        reconciler,
        o ->
            o.settingNamespaces("default")
                .withRetry(ReconcileRetry.backoff(ReconcileRetry.DEFAULT_FIRST_WAIT)));
    operator.start();

    client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("failing")
                .withNamespace("default")
                .endMetadata()
                .build())
        .create();

    await().atMost(Duration.ofSeconds(30)).until(() -> reconciler.calls.get() > FAILURES);
    List<ILoggingEvent> failures =
        events().stream().filter(e -> e.getFormattedMessage().startsWith("Reconcile of")).toList();
    assertThat(failures)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "Reconcile of ConfigMap default/failing failed (attempt 1): IllegalStateException:"
                + " boom 1; caused by IOException: disk gone; retried with backoff",
            "Reconcile of ConfigMap default/failing failed (attempt 2): IllegalStateException:"
                + " boom 2; caused by IOException: disk gone; retried with backoff (stack trace at"
                + " attempt 1)",
            "Reconcile of ConfigMap default/failing failed (attempt 3): IllegalStateException:"
                + " boom 3; caused by IOException: disk gone; retried with backoff (stack trace at"
                + " attempt 1)");
    assertThat(events().stream().filter(e -> e.getThrowableProxy() != null)).hasSize(1);
    assertThat(events())
        .noneMatch(e ->
            e.getLoggerName().equals(ReconcileFailureLog.FRAMEWORK_LOGGER)
                && e.getThrowableProxy() != null);
  }

  @Test
  void causesAreNamedInWordsBoundedAndWithoutCycles() {
    IllegalStateException outer = new IllegalStateException("outer\nline");
    RuntimeException inner = new RuntimeException("x".repeat(1000), outer);
    outer.initCause(inner);

    String words = ReconcileFailureLog.inWords(outer);

    assertThat(words).startsWith("IllegalStateException: outer line; caused by RuntimeException: ");
    assertThat(words).hasSizeLessThan(400).doesNotContain("\n");
  }

  private List<ILoggingEvent> events() {
    synchronized (logged) {
      return List.copyOf(logged.list);
    }
  }

  @ControllerConfiguration(name = "failing")
  static final class Failing implements Reconciler<ConfigMap> {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
      int call = calls.incrementAndGet();
      if (call <= FAILURES) {
        throw new IllegalStateException("boom " + call, new IOException("disk gone"));
      }
      return UpdateControl.noUpdate();
    }
  }
}
