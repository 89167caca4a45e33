package dev.threadline.api.metrics;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The API server's product meters, recorded where the API server sees them happen. HTTP request
 * rates and latencies are Spring's own {@code http_server_requests_seconds}.
 */
public final class ApiMetrics {
  private final Timer firstEvent;
  private final Counter allowed;
  private final Counter limited;
  private final Clock clock;

  public ApiMetrics(MeterRegistry registry, Clock clock) {
    this.clock = clock;
    this.firstEvent =
        Timer.builder("threadline_run_first_event")
            .description("From a Run's creation to the first of its own events sent on a stream")
            .publishPercentileHistogram()
            .register(registry);
    this.allowed = rateLimitCounter(registry, "allowed");
    this.limited = rateLimitCounter(registry, "limited");
  }

  /** The first event of {@code run}'s log went out on a stream that began with the run. */
  public void firstEventSent(Run run) {
    Instant created = Timestamps.parse(run.getMetadata().getCreationTimestamp()).orElse(null);
    if (created != null) {
      Duration took = Duration.between(created, clock.instant());
      // Negative only when the API server's and this host's clocks disagree.
      firstEvent.record(took.isNegative() ? Duration.ZERO : took);
    }
  }

  /** A rate-limited request was let through ({@code true}) or refused with 429. */
  public void rateLimitChecked(boolean consumed) {
    (consumed ? allowed : limited).increment();
  }

  private static Counter rateLimitCounter(MeterRegistry registry, String outcome) {
    return Counter.builder("threadline_rate_limit_requests")
        .description("Requests checked against their API key's rate limit, by outcome")
        .tag("outcome", outcome)
        .register(registry);
  }
}
