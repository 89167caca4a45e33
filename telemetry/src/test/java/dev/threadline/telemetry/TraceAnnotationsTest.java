package dev.threadline.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceAnnotationsTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN = "00f067aa0ba902b7";

  @Test
  void aSampledSpanTravelsAsAnnotationsAndComesBackAsTheRemoteParent() {
    SpanContext sent =
        SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault());
    Map<String, String> annotations = TraceAnnotations.of(Context.root().with(Span.wrap(sent)));

    assertThat(annotations)
        .containsExactly(
            Map.entry(TraceAnnotations.TRACEPARENT, "00-" + TRACE + "-" + SPAN + "-01"));
    SpanContext received =
        Span.fromContext(TraceAnnotations.parentOf(annotations)).getSpanContext();
    assertThat(received.isRemote()).isTrue();
    assertThat(received.getTraceId()).isEqualTo(TRACE);
    assertThat(received.getSpanId()).isEqualTo(SPAN);
  }

  @Test
  void noSpanNoAnnotations() {
    assertThat(TraceAnnotations.of(Context.root())).isEmpty();
  }

  @Test
  void missingOrMalformedAnnotationsGiveARootContext() {
    assertThat(Span.fromContext(TraceAnnotations.parentOf(null)).getSpanContext().isValid())
        .isFalse();
    assertThat(
            Span.fromContext(
                    TraceAnnotations.parentOf(Map.of(TraceAnnotations.TRACEPARENT, "junk")))
                .getSpanContext()
                .isValid())
        .isFalse();
  }
}
