package dev.threadline.crds.client;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports each skipped object as a {@code Warning} Event on it (reason {@value #REASON}), so that
 * {@code kubectl describe} and {@code kubectl get events} show why a resource is ignored. The Event
 * is written off the reading thread (which is a watch's or a list's), at most once per object
 * version and component: its name is derived from them, so a second report is an AlreadyExists.
 */
final class UnreadableResourceEvents implements Consumer<UnreadableResource> {
  static final String REASON = "Unreadable";

  private static final Logger log = LoggerFactory.getLogger(UnreadableResourceEvents.class);
  private static final int MAX_PENDING = 100;
  private static final int MAX_REMEMBERED = 10_000;
  private static final int MAX_NAME_PART = 200;

  private final String component;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();
  private final ExecutorService writer;
  private volatile KubernetesClient client;

  UnreadableResourceEvents(String component) {
    this.component = component;
    // One daemon thread, a short queue: a flood of unreadable objects drops reports, never reads.
    this.writer =
        new ThreadPoolExecutor(
            0,
            1,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(MAX_PENDING),
            task -> {
              Thread thread = new Thread(task, "threadline-unreadable-events");
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.DiscardPolicy());
  }

  /** The client that writes the Events: the one whose reads this reports on. */
  void attach(KubernetesClient eventClient) {
    this.client = eventClient;
  }

  @Override
  public void accept(UnreadableResource skipped) {
    Event event = event(skipped, Instant.now());
    String key = event.getMetadata().getNamespace() + "/" + event.getMetadata().getName();
    if (client == null || !reported.add(key)) {
      return;
    }
    if (reported.size() > MAX_REMEMBERED) {
      reported.clear();
    }
    writer.execute(() -> write(event, skipped));
  }

  private void write(Event event, UnreadableResource skipped) {
    try {
      client.v1().events().resource(event).create();
    } catch (KubernetesClientException refused) {
      if (refused.getCode() != 409) {
        log.warn(
            "Could not report {} as unreadable in an Event: {}",
            skipped.describe(),
            refused.getMessage());
      }
    }
  }

  Event event(UnreadableResource skipped, Instant now) {
    String namespace = skipped.namespace().isEmpty() ? "default" : skipped.namespace();
    String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    return new EventBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(eventName(skipped))
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion(skipped.apiVersion())
        .withKind(skipped.kind())
        .withNamespace(skipped.namespace().isEmpty() ? null : skipped.namespace())
        .withName(skipped.name())
        .withUid(skipped.uid().isEmpty() ? null : skipped.uid())
        .withResourceVersion(skipped.resourceVersion().isEmpty() ? null : skipped.resourceVersion())
        .endInvolvedObject()
        .withType("Warning")
        .withReason(REASON)
        .withMessage(
            component
                + " skips this "
                + skipped.kind()
                + ": field "
                + skipped.field()
                + " does not match this version's schema")
        .withNewSource()
        .withComponent(component)
        .endSource()
        .withReportingComponent(component)
        .withFirstTimestamp(time)
        .withLastTimestamp(time)
        .withCount(1)
        .build();
  }

  private String eventName(UnreadableResource skipped) {
    String name = skipped.name();
    String base = name.length() > MAX_NAME_PART ? name.substring(0, MAX_NAME_PART) : name;
    return base
        + ".unreadable."
        + UUID.nameUUIDFromBytes(
                (component + "/" + skipped.uid() + "/" + skipped.resourceVersion())
                    .getBytes(StandardCharsets.UTF_8))
            .toString()
            .substring(0, 8);
  }
}
