package dev.threadline.api.threads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadOrderTest {
  private static final Instant T0 = Instant.parse("2026-11-26T08:00:00Z");

  private final ThreadOrder order = new ThreadOrder();

  @Test
  void listsEachNamespaceNewestFirstWithTheNameBreakingTies() {
    put(thread("ns-a", "thread-b", 0));
    put(thread("ns-a", "thread-c", 10));
    put(thread("ns-a", "thread-a", 0));
    put(thread("ns-b", "thread-z", 20));

    assertThat(names("ns-a")).containsExactly("thread-c", "thread-b", "thread-a");
    assertThat(order.count("ns-a")).isEqualTo(3);
    assertThat(names("ns-b")).containsExactly("thread-z");
    assertThat(names("ns-none")).isEmpty();
    assertThat(order.size()).isEqualTo(4);
  }

  @Test
  void anUpdateKeepsOnePlaceAndTheLatestVersionIsListed() {
    put(thread("ns", "thread-a", 0));
    ConversationThread renamed = thread("ns", "thread-a", 0);
    renamed.getSpec().setTitle("second");
    put(renamed);

    assertThat(order.newestFirst("ns").toList())
        .singleElement()
        .satisfies(listed -> assertThat(listed.getSpec().getTitle()).isEqualTo("second"));
    assertThat(order.count("ns")).isEqualTo(1);
  }

  @Test
  void threadsBeingDeletedOrWithoutARestIdAreNotListedButStayCached() {
    put(thread("ns", "thread-a", 0));
    ConversationThread deleting = thread("ns", "thread-b", 5);
    put(deleting);
    ConversationThread marked = thread("ns", "thread-b", 5);
    marked.getMetadata().setDeletionTimestamp(T0.plusSeconds(60).toString());
    put(marked);
    put(thread("ns", "kc-123", 9));

    assertThat(names("ns")).containsExactly("thread-a");
    assertThat(order.count("ns")).isEqualTo(1);
    assertThat(order.size()).isEqualTo(3);
    assertThat(order.get("ns/kc-123")).isNotNull();
  }

  @Test
  void removingForgetsThePlace() {
    put(thread("ns", "thread-a", 0));
    put(thread("ns", "thread-b", 1));

    assertThat(order.remove("ns/thread-b")).isNotNull();

    assertThat(names("ns")).containsExactly("thread-a");
    assertThat(order.count("ns")).isEqualTo(1);
    assertThat(order.get("ns/thread-b")).isNull();
  }

  private void put(ConversationThread thread) {
    order.put(order.getKey(thread), thread);
  }

  private List<String> names(String namespace) {
    return order.newestFirst(namespace).map(thread -> thread.getMetadata().getName()).toList();
  }

  private static ConversationThread thread(String namespace, String name, int secondsAfter) {
    ConversationThread thread = new ConversationThread();
    thread.getMetadata().setNamespace(namespace);
    thread.getMetadata().setName(name);
    thread.getMetadata().setCreationTimestamp(T0.plusSeconds(secondsAfter).toString());
    thread.setSpec(new ThreadSpec());
    return thread;
  }
}
