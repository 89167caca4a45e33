package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The optimistic-locking loop of a status write: the change is applied to a copy of the object and
 * its status written with that copy's resourceVersion; when another writer got there first (409)
 * the object is read again and the change re-applied to what is really there, so a change computed
 * from a stale copy is never written. What to re-read, how often to try and which other errors to
 * retry stay with each caller.
 */
public final class StatusWriteLoop {
  private StatusWriteLoop() {}

  /** How a status write ended. */
  public sealed interface Outcome<T> {}

  /** The status was written; {@code base} is the version the change was applied to. */
  public record Written<T>(T written, T base) implements Outcome<T> {}

  /** The change had nothing to write to {@code current}, the latest version seen. */
  public record Unchanged<T>(T current) implements Outcome<T> {}

  /** The re-read found the object gone: nothing was written. */
  public record Gone<T>() implements Outcome<T> {}

  /**
   * @param known the version to start from
   * @param attempts writes tried at most; the last failure is thrown
   * @param retryable the HTTP codes after which the object is read again and the write retried
   * @param reRead the latest version, or null when the object is gone
   * @param change edits a copy in place; returns false when there is nothing to write
   */
  public static <T extends HasMetadata> Outcome<T> write(
      KubernetesClient client,
      T known,
      int attempts,
      IntPredicate retryable,
      Supplier<T> reRead,
      Predicate<T> change) {
    T base = known;
    for (int attempt = 1; ; attempt++) {
      T next = TokenCloner.copy(client, base);
      if (!change.test(next)) {
        return new Unchanged<>(base);
      }
      try {
        return new Written<>(client.resource(next).updateStatus(), base);
      } catch (KubernetesClientException e) {
        if (!retryable.test(e.getCode()) || attempt == attempts) {
          throw e;
        }
        base = reRead.get();
        if (base == null) {
          return new Gone<>();
        }
      }
    }
  }
}
