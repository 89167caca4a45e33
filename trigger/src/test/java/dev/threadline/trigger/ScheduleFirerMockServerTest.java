package dev.threadline.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.crds.CrdManifests;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.telemetry.GenAi;
import dev.threadline.telemetry.Telemetry;
import dev.threadline.telemetry.TraceAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class ScheduleFirerMockServerTest {
  private static final int LIMIT = 2;
  private static final Instant AT = Instant.parse("2026-05-04T09:00:00Z");
  static KubernetesMockServer server;
  static KubernetesClient client;

  @BeforeAll
  static void crds() throws IOException {
    for (String plural : List.of("threads", "runs")) {
      try (InputStream manifest =
          ScheduleFirerMockServerTest.class.getResourceAsStream(CrdManifests.resourceOf(plural))) {
        CustomResourceDefinition crd =
            client.apiextensions().v1().customResourceDefinitions().load(manifest).item();
        server.expectCustomResource(CustomResourceDefinitionContext.fromCrd(crd));
      }
    }
  }

  @Test
  void firesWhileTheUserHasRoomForAThread() {
    createThreads("room", LIMIT - 1);

    ScheduleFirer.Firing firing = firer().fire(schedule("room"), "thread-fired", AT);

    assertThat(firing.isSkipped()).isFalse();
    assertThat(firing.created()).isTrue();
    assertThat(threads("room")).hasSize(LIMIT);
    assertThat(runs("room"))
        .extracting(r -> r.getSpec().getThread())
        .containsExactly("thread-fired");
  }

  @Test
  void aUserAtTheLimitGetsNoThreadAndTheFiringSaysWhy() {
    createThreads("full", LIMIT);

    ScheduleFirer.Firing firing = firer().fire(schedule("full"), "thread-fired", AT);

    assertThat(firing.isSkipped()).isTrue();
    assertThat(firing.created()).isFalse();
    assertThat(firing.runName()).isNull();
    assertThat(firing.skipped()).startsWith("Limit exceeded: a user may hold at most 2 threads");
    assertThat(threads("full")).hasSize(LIMIT);
    assertThat(runs("full")).isEmpty();
  }

  @Test
  void anInterruptedFiringIsFinishedAtTheLimit() {
    createThreads("interrupted", LIMIT - 1);
    ConversationThread own = new ConversationThread();
    own.setMetadata(
        new ObjectMetaBuilder().withName("thread-fired").withNamespace("interrupted").build());
    client.resource(own).create();

    ScheduleFirer.Firing firing = firer().fire(schedule("interrupted"), "thread-fired", AT);

    assertThat(firing.isSkipped()).isFalse();
    assertThat(firing.created()).isFalse();
    assertThat(threads("interrupted")).hasSize(LIMIT);
    assertThat(runs("interrupted")).hasSize(1);
  }

  @Test
  void theFiringIsASpanUnderTheCallersWhoseContextTheRunCarries() {
    InMemorySpanExporter exported = InMemorySpanExporter.create();
    try (SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exported))
            .build()) {
      Tracer tracer = provider.get("test");
      Span request = tracer.spanBuilder("POST /v1/schedules/{id}/trigger").startSpan();
      try (Scope ignored = request.makeCurrent()) {
        new ScheduleFirer(client, LIMIT, tracer).fire(schedule("traced"), "thread-traced", AT);
      } finally {
        request.end();
      }

      SpanData firing =
          exported.getFinishedSpanItems().stream()
              .filter(span -> span.getName().equals("fire_schedule sched-daily"))
              .findFirst()
              .orElseThrow();
      assertThat(firing.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
      assertThat(firing.getAttributes().get(ScheduleFirer.SCHEDULE_NAME)).isEqualTo("sched-daily");
      assertThat(firing.getAttributes().get(ScheduleFirer.FIRING_TIME))
          .isEqualTo("2026-05-04T09:00:00Z");
      assertThat(firing.getAttributes().get(GenAi.CONVERSATION_ID)).isEqualTo("thread_traced");
      // The operator's span of the run continues the firing's.
      SpanContext carried =
          Span.fromContext(
                  TraceAnnotations.parentOf(runs("traced").get(0).getMetadata().getAnnotations()))
              .getSpanContext();
      assertThat(carried.isRemote()).isTrue();
      assertThat(carried.getTraceId()).isEqualTo(firing.getTraceId());
      assertThat(carried.getSpanId()).isEqualTo(firing.getSpanId());
    }
  }

  @Test
  void aSkippedFiringSaysWhyOnItsSpan() {
    createThreads("skipped", LIMIT);
    InMemorySpanExporter exported = InMemorySpanExporter.create();
    try (SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exported))
            .build()) {
      new ScheduleFirer(client, LIMIT, provider.get("test"))
          .fire(schedule("skipped"), "thread-fired", AT);

      assertThat(exported.getFinishedSpanItems())
          .singleElement()
          .satisfies(span ->
              assertThat(span.getAttributes().get(ScheduleFirer.SKIPPED))
                  .startsWith("Limit exceeded"));
    }
  }

  @Test
  void withoutTracesTheRunCarriesNoTraceContext() {
    firer().fire(schedule("untraced"), "thread-fired", AT);

    assertThat(runs("untraced").get(0).getMetadata().getAnnotations())
        .doesNotContainKey(TraceAnnotations.TRACEPARENT);
  }

  @Test
  void theLimitMustAllowAThread() {
    assertThatThrownBy(() -> new ScheduleFirer(client, 0, Telemetry.off().tracer()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static ScheduleFirer firer() {
    return new ScheduleFirer(client, LIMIT, Telemetry.off().tracer());
  }

  private static Schedule schedule(String namespace) {
    Schedule schedule = new Schedule();
    schedule.setMetadata(
        new ObjectMetaBuilder().withName("sched-daily").withNamespace(namespace).build());
    ScheduleSpec spec = new ScheduleSpec();
    spec.setTask("Hello!");
    spec.setScheduleType(Schedule.RECURRING);
    spec.setCronExpression("0 9 * * *");
    schedule.setSpec(spec);
    return schedule;
  }

  private static void createThreads(String namespace, int count) {
    for (int i = 0; i < count; i++) {
      ConversationThread thread = new ConversationThread();
      thread.setMetadata(
          new ObjectMetaBuilder().withName("thread-" + i).withNamespace(namespace).build());
      client.resource(thread).create();
    }
  }

  private static List<ConversationThread> threads(String namespace) {
    return client.resources(ConversationThread.class).inNamespace(namespace).list().getItems();
  }

  private static List<Run> runs(String namespace) {
    return client.resources(Run.class).inNamespace(namespace).list().getItems();
  }
}
