package dev.threadline.api.environments;

import dev.threadline.crds.environment.Environment;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Lets a request wait for the informer to deliver an Environment in a given state (the operator's
 * answer to a test build), without polling: every add or update is offered to the waiters.
 */
final class EnvironmentChanges implements ResourceEventHandler<Environment> {
  private record Waiter(
      String namespace,
      String name,
      Predicate<Environment> condition,
      CompletableFuture<Environment> result) {}

  private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();

  /**
   * The first version of the Environment that satisfies {@code condition}, checking {@code current}
   * first; empty after {@code timeout}.
   */
  Optional<Environment> await(
      Environment current, Predicate<Environment> condition, Duration timeout) {
    Waiter waiter =
        new Waiter(
            current.getMetadata().getNamespace(),
            current.getMetadata().getName(),
            condition,
            new CompletableFuture<>());
    waiters.add(waiter);
    try {
      offer(waiter, current);
      return Optional.of(waiter.result().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException expired) {
      return Optional.empty();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (ExecutionException impossible) {
      throw new IllegalStateException(impossible.getCause());
    } finally {
      waiters.remove(waiter);
    }
  }

  @Override
  public void onAdd(Environment environment) {
    waiters.forEach(waiter -> offer(waiter, environment));
  }

  @Override
  public void onUpdate(Environment before, Environment environment) {
    waiters.forEach(waiter -> offer(waiter, environment));
  }

  @Override
  public void onDelete(Environment environment, boolean finalStateUnknown) {
    // A deleted environment never reaches the state a waiter wants; it times out.
  }

  private static void offer(Waiter waiter, Environment environment) {
    if (waiter.namespace().equals(environment.getMetadata().getNamespace())
        && waiter.name().equals(environment.getMetadata().getName())
        && waiter.condition().test(environment)) {
      waiter.result().complete(environment);
    }
  }
}
