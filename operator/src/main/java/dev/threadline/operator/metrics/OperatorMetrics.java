package dev.threadline.operator.metrics;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.webhook.WebhookDeliveryState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The operator's product meters (Prometheus names {@code threadline_…}), recorded by the
 * controllers at the moment the thing happens. Reconcile durations and errors are the framework's
 * own {@code operator_sdk_…} meters on the same registry.
 */
public final class OperatorMetrics {
  private final MeterRegistry registry;

  public OperatorMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * A run reached a terminal phase; counted once per run, with its time from creation to
   * completion, by route ({@code direct}, {@code computer}) and phase.
   */
  public void runFinished(Run run) {
    String route = Optional.ofNullable(run.getStatus().getRoute()).orElse("none");
    String phase = RunPhase.of(run).value();
    Counter.builder("threadline_runs_finished")
        .description("Runs that reached a terminal phase, by route and phase")
        .tags("route", route, "phase", phase)
        .register(registry)
        .increment();
    between(run.getMetadata().getCreationTimestamp(), run.getStatus().getCompletedAt())
        .ifPresent(took ->
            Timer.builder("threadline_run_duration")
                .description("From a Run's creation to its completion, by route and phase")
                .tags("route", route, "phase", phase)
                .publishPercentileHistogram()
                .register(registry)
                .record(took));
  }

  /** An environment build Job ended: {@code kind} image or test, {@code outcome} ready/failed. */
  public void buildFinished(String kind, String outcome, Duration took) {
    Timer.builder("threadline_build_duration")
        .description("Environment build Jobs from creation to end, by kind and outcome")
        .tags("kind", kind, "outcome", outcome)
        .publishPercentileHistogram()
        .register(registry)
        .record(took);
  }

  /** One webhook delivery attempt ended in {@code state} (pending means a retry is scheduled). */
  public void webhookAttempted(WebhookDeliveryState state) {
    Counter.builder("threadline_webhook_deliveries")
        .description("Webhook delivery attempts by outcome (delivered, pending retry, failed)")
        .tag("outcome", state.value())
        .register(registry)
        .increment();
  }

  /**
   * A computer run asked its environment's warm pool for a sandbox: a hit (it claimed one) or a
   * miss (it starts cold), and how long the asking took.
   */
  public void poolClaim(boolean hit, Duration took) {
    String outcome = hit ? "hit" : "miss";
    Counter.builder("threadline_warm_pool_claims")
        .description("Warm-pool claims by outcome: hit (claimed a sandbox) or miss (cold start)")
        .tag("outcome", outcome)
        .register(registry)
        .increment();
    Timer.builder("threadline_warm_pool_claim_duration")
        .description("How long a warm-pool claim took, by outcome")
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .register(registry)
        .record(took);
  }

  /**
   * A computer run's sandbox answered for the first time: from the run's start to then, by how it
   * got it ({@code claimed} or {@code cold}); the cold row is the cold start time.
   */
  public void sandboxReady(String start, Duration took) {
    Timer.builder("threadline_sandbox_start_duration")
        .description("From a computer run's start to its sandbox serving, by start (claimed, cold)")
        .tag("start", start)
        .publishPercentileHistogram()
        .register(registry)
        .record(took);
  }

  /** One step of a computer run's start took {@code took} ({@link StartSteps}). */
  public void startStep(String step, Duration took) {
    Timer.builder("threadline_sandbox_start_step_duration")
        .description("One step of a computer run's start (routing, claim, hand-off, bind), by step")
        .tag("step", step)
        .register(registry)
        .record(took);
  }

  /**
   * A run waited {@code took} for a person: {@code kind} approval (a tool call to approve) or
   * question (the model's ask_user).
   */
  public void inputWait(String kind, Duration took) {
    Timer.builder("threadline_run_input_wait_duration")
        .description("How long a run waited for a person, by kind (approval, question)")
        .tag("kind", kind)
        .publishPercentileHistogram()
        .register(registry)
        .record(took);
  }

  private static Optional<Duration> between(String from, String to) {
    Optional<Instant> start = Timestamps.parse(from);
    Optional<Instant> end = Timestamps.parse(to);
    return start.isPresent() && end.isPresent()
        ? Optional.of(Duration.between(start.get(), end.get())).filter(took -> !took.isNegative())
        : Optional.empty();
  }
}
