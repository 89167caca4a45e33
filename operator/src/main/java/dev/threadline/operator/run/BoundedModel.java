package dev.threadline.operator.run;

import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.Redaction;
import dev.threadline.models.TextDeltas;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A direct run's model, bounded from outside the call: the call runs on a thread of its own while
 * the reconcile waits for it, at most the model timeout and only while the run is not cancelled;
 * then it is abandoned (interrupted; its later text is dropped, and its client's own timeout ends
 * it). The SDKs' own timeouts come first for an HTTP call: this bound also holds for a model
 * without one (the scripted model, in-process) and for whatever the SDKs do not time. Whatever the
 * call throws comes out as a {@link ModelException}, so no failure of a provider escapes a
 * reconcile into the framework's retries.
 */
final class BoundedModel implements ModelProvider {
  private static final Logger LOG = LoggerFactory.getLogger(BoundedModel.class);

  /**
   * Beyond the model timeout, for the client's own work around the HTTP call (a cold SDK loads its
   * classes first): the SDKs' timeouts bound the call itself, this one everything else.
   */
  static final Duration MARGIN = Duration.ofSeconds(10);

  /** How often the wait looks at the run's cancel: a cancel ends the run about this soon. */
  private static final long CANCEL_CHECK_NANOS = Duration.ofMillis(50).toNanos();

  /** The run was cancelled while its model call was in flight. */
  static final class Cancelled extends RuntimeException {
    Cancelled() {
      super("the run was cancelled while its model call was in flight", null, false, false);
    }
  }

  /**
   * Platform threads, made as calls need them (at most one per reconcile thread waiting, plus the
   * abandoned calls until their own timeout ends them).
   */
  private static final ExecutorService CALLS =
      Executors.newCachedThreadPool(
          Thread.ofPlatform().daemon().name("direct-model-call-", 0).factory());

  private final ModelProvider model;
  private final Duration timeout;
  private final BooleanSupplier cancelled;

  /**
   * @param timeout the model timeout: the call is abandoned {@link #MARGIN} after it
   * @param cancelled whether the run was cancelled meanwhile (read from the informer's cache)
   */
  BoundedModel(ModelProvider model, Duration timeout, BooleanSupplier cancelled) {
    this.model = model;
    this.timeout = timeout.plus(MARGIN);
    this.cancelled = cancelled;
  }

  @Override
  public String name() {
    return model.name();
  }

  /**
   * @throws Cancelled when the run was cancelled before the model answered
   */
  @Override
  public ModelReply complete(ModelRequest request) {
    return bounded(ignored -> model.complete(request), TextDeltas.IGNORE);
  }

  /**
   * @throws Cancelled when the run was cancelled before the model answered
   */
  @Override
  public ModelReply stream(ModelRequest request, TextDeltas deltas) {
    return bounded(guarded -> model.stream(request, guarded), deltas);
  }

  private ModelReply bounded(Function<TextDeltas, ModelReply> call, TextDeltas deltas) {
    AtomicBoolean abandoned = new AtomicBoolean();
    FutureTask<ModelReply> task =
        new FutureTask<>(() ->
            call.apply(text -> {
              if (!abandoned.get()) {
                deltas.onText(text);
              }
            }));
    CALLS.execute(task);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        if (cancelled.getAsBoolean()) {
          throw new Cancelled();
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new ModelException(
              model.name(),
              ModelErrorCode.TIMEOUT,
              "no answer within " + timeout.toMillis() + " ms");
        }
        try {
          return task.get(Math.min(left, CANCEL_CHECK_NANOS), TimeUnit.NANOSECONDS);
        } catch (TimeoutException stillAnswering) {
          // Look at the cancel and the deadline again.
        }
      }
    } catch (ExecutionException e) {
      throw failure(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ModelException(
          model.name(), ModelErrorCode.UNAVAILABLE, "the call was interrupted");
    } finally {
      if (!task.isDone()) {
        abandoned.set(true);
        task.cancel(true);
      }
    }
  }

  /** What the call threw, as the failure of a model call in the words of what failed. */
  private ModelException failure(Throwable cause) {
    if (cause instanceof ModelException known) {
      return known;
    }
    if (cause instanceof Error error && !(error instanceof StackOverflowError)) {
      throw error; // the JVM's trouble, not the model's
    }
    LOG.warn("The {} model call failed unexpectedly", model.name(), cause);
    return new ModelException(
        model.name(),
        ModelErrorCode.INVALID_REPLY,
        0,
        Redaction.redact(
            "the call failed: " + cause.getClass().getSimpleName() + ": " + cause.getMessage(),
            null),
        cause);
  }

  /** Nothing to release: the model's client is the catalog's, shared by every run. */
  @Override
  public void close() {}
}
