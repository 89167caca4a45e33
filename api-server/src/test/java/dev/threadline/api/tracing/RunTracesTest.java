package dev.threadline.api.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.telemetry.GenAi;
import dev.threadline.telemetry.TraceAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RunTracesTest {
  private final InMemorySpanExporter exported = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build();

  @AfterEach
  void close() {
    provider.close();
  }

  @Test
  void aRunCreatedDuringATracedRequestCarriesItsSpanAndTheSpanNamesTheThread() {
    Run run = run(Map.of("threadline.dev/posted-to-thread", "true"));
    Span request = provider.get("test").spanBuilder("POST /v1/threads").startSpan();
    try (Scope ignored = request.makeCurrent()) {
      RunTraces.continueIn(run);
    } finally {
      request.end();
    }

    SpanData span = exported.getFinishedSpanItems().getFirst();
    assertThat(run.getMetadata().getAnnotations())
        .containsEntry("threadline.dev/posted-to-thread", "true")
        .containsEntry(
            TraceAnnotations.TRACEPARENT,
            "00-"
                + span.getTraceId()
                + "-"
                + span.getSpanId()
                + "-"
                + span.getSpanContext().getTraceFlags().asHex());
    assertThat(span.getAttributes().get(GenAi.CONVERSATION_ID)).isEqualTo("thread_abc123");
  }

  @Test
  void untracedRunsAreLeftAlone() {
    Run run = run(null);

    RunTraces.continueIn(run);

    assertThat(run.getMetadata().getAnnotations()).isNull();
  }

  private static Run run(Map<String, String> annotations) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName("run-thread-abc123-1")
            .withAnnotations(annotations)
            .build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc123");
    run.setSpec(spec);
    return run;
  }
}
