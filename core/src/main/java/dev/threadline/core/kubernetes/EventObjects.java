package dev.threadline.core.kubernetes;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The core/v1 Event objects Threadline's components write about its resources (what {@code kubectl
 * describe} and {@code kubectl get events} show): one shape for the operator's correlating recorder
 * and the schedule trigger's one Event per firing.
 */
public final class EventObjects {
  /** Kubernetes bounds an Event's message; longer ones are cut with a note. */
  public static final int MAX_MESSAGE = 1024;

  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";

  private EventObjects() {}

  /**
   * A new Event named {@code name} about {@code about}, seen {@code count} times from {@code
   * firstSeen} to {@code now}, reported by {@code component}.
   */
  public static Event event(
      HasMetadata about,
      String type,
      String reason,
      String message,
      String name,
      int count,
      Instant firstSeen,
      Instant now,
      String component) {
    String namespace = about.getMetadata().getNamespace();
    return new EventBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .endMetadata()
        .withInvolvedObject(
            new ObjectReferenceBuilder()
                .withApiVersion(about.getApiVersion())
                .withKind(about.getKind())
                .withName(about.getMetadata().getName())
                .withNamespace(namespace)
                .withUid(about.getMetadata().getUid())
                .build())
        .withType(type)
        .withReason(reason)
        .withMessage(bounded(message))
        .withFirstTimestamp(time(firstSeen))
        .withLastTimestamp(time(now))
        .withCount(count)
        .withNewSource()
        .withComponent(component)
        .endSource()
        .withReportingComponent(component)
        .build();
  }

  /** As kubectl and client-go name them: the object's name and a unique suffix. */
  public static String newName(HasMetadata about, Instant now) {
    return about.getMetadata().getName()
        + "."
        + Long.toHexString(now.getEpochSecond() * 1_000_000_000L + now.getNano())
        + Long.toHexString(System.nanoTime() & 0xffff);
  }

  /** Event times as the API writes them: whole seconds. */
  public static String time(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }

  /** At most {@value #MAX_MESSAGE} characters, the cut said. */
  public static String bounded(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    return message.substring(0, MAX_MESSAGE - 20) + " … (message cut)";
  }
}
