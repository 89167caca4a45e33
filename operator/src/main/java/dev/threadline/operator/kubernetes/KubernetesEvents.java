package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes Events about Threadline's objects, for a person debugging with {@code kubectl
 * describe}: what the operator decided that a status alone does not tell (a build failed, a quota
 * made something wait, a sandbox did not start, a schedule fired or skipped). Callers record an
 * Event when the thing happens, not on every reconcile. An Event is a courtesy: one the API refuses
 * is logged and forgotten, never a reason to fail a reconcile. Messages must not hold secrets.
 */
public final class KubernetesEvents {
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesEvents.class);
  static final String COMPONENT = "threadline-operator";

  /** Kubernetes bounds an Event's message; longer ones are cut with a note. */
  static final int MAX_MESSAGE = 1024;

  private final Clock clock;

  public KubernetesEvents(Clock clock) {
    this.clock = clock;
  }

  /** Something the user should know went as intended. */
  public void normal(KubernetesClient client, HasMetadata about, String reason, String message) {
    record(client, about, "Normal", reason, message);
  }

  /** Something that went wrong, or waits, and why. */
  public void warning(KubernetesClient client, HasMetadata about, String reason, String message) {
    record(client, about, "Warning", reason, message);
  }

  private void record(
      KubernetesClient client, HasMetadata about, String type, String reason, String message) {
    Instant now = clock.instant();
    String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    String namespace = about.getMetadata().getNamespace();
    try {
      client
          .v1()
          .events()
          .inNamespace(namespace)
          .resource(
              new EventBuilder()
                  .withNewMetadata()
                  // As kubectl and client-go name them: the object's name and a unique suffix.
                  .withName(
                      about.getMetadata().getName()
                          + "."
                          + Long.toHexString(now.getEpochSecond() * 1_000_000_000L + now.getNano())
                          + Long.toHexString(System.nanoTime() & 0xffff))
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
                  .withFirstTimestamp(time)
                  .withLastTimestamp(time)
                  .withCount(1)
                  .withNewSource()
                  .withComponent(COMPONENT)
                  .endSource()
                  .withReportingComponent(COMPONENT)
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      LOG.warn(
          "Event {} about {}({}/{}) not recorded: {}",
          reason,
          about.getKind(),
          namespace,
          about.getMetadata().getName(),
          e.getMessage());
    }
  }

  static String bounded(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    return message.substring(0, MAX_MESSAGE - 20) + " … (message cut)";
  }
}
