package dev.threadline.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a provider's {@link ModelProvider#stream} handed over: the text pieces in the order they
 * came, the reply it returned, and when the first piece came against when the call returned.
 */
public record StreamedReply(
    ModelReply reply, List<String> deltas, long firstDeltaNanos, long returnedNanos) {

  /** Streams {@code request} through {@code provider}, noting each piece as it comes. */
  public static StreamedReply of(ModelProvider provider, ModelRequest request) {
    List<String> deltas = new CopyOnWriteArrayList<>();
    List<Long> arrivals = new CopyOnWriteArrayList<>();
    ModelReply reply =
        provider.stream(
            request,
            delta -> {
              deltas.add(delta);
              arrivals.add(System.nanoTime());
            });
    long returned = System.nanoTime();
    return new StreamedReply(
        reply, List.copyOf(deltas), arrivals.isEmpty() ? returned : arrivals.get(0), returned);
  }

  /**
   * Asserts that the text came in exactly these {@code pieces}, that they join to the reply's text,
   * and that the first came at least {@code stillWriting} before the call returned: handed over
   * while the server was still writing, not at the end.
   */
  public void assertHandedOverWhileWritten(Duration stillWriting, String... pieces) {
    assertThat(deltas).containsExactly(pieces);
    assertThat(String.join("", deltas)).isEqualTo(reply.text()).isEqualTo(String.join("", pieces));
    assertThat(Duration.ofNanos(returnedNanos - firstDeltaNanos)).isGreaterThan(stillWriting);
  }
}
