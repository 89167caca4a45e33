package dev.threadline.operator.webhooks;

import dev.threadline.core.network.InvalidTargetException;
import dev.threadline.core.network.TargetUrl;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.webhook.WebhookDelivery;
import dev.threadline.crds.webhook.WebhookDeliverySpec;
import dev.threadline.crds.webhook.WebhookDeliveryStatus;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import dev.threadline.operator.metrics.OperatorMetrics;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers WebhookDeliveries: one attempt per reconcile when one is due, its outcome written to the
 * status, the next attempt (or the record's deletion, a retention period after it finished) left to
 * a rescheduled reconcile — never a sleep. Everything needed to go on is in the status, so a
 * restarted operator resumes where the last one stopped: at least once, always with the same {@code
 * webhook-id}.
 */
@ControllerConfiguration(name = "webhook-delivery")
public class WebhookDeliveryReconciler implements Reconciler<WebhookDelivery>, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDeliveryReconciler.class);
  private static final int ATTEMPTS = 10;
  private static final Duration SOON = Duration.ofMillis(1);

  private final KubernetesClient client;
  private final WebhookSettings settings;
  private final Clock clock;
  private final WebhookSender sender;
  private final OperatorMetrics metrics;

  public WebhookDeliveryReconciler(
      KubernetesClient client, WebhookSettings settings, Clock clock, OperatorMetrics metrics) {
    this.client = client;
    this.settings = settings;
    this.clock = clock;
    this.metrics = metrics;
    this.sender = new WebhookSender(settings.allowedTargets());
  }

  @Override
  public UpdateControl<WebhookDelivery> reconcile(
      WebhookDelivery cached, Context<WebhookDelivery> context) {
    // The API's copy, not the cache's: the last attempt's outcome must be seen, or it is made
    // twice.
    WebhookDelivery delivery =
        client
            .resources(WebhookDelivery.class)
            .inNamespace(cached.getMetadata().getNamespace())
            .withName(cached.getMetadata().getName())
            .get();
    if (delivery == null || delivery.getSpec() == null) {
      return UpdateControl.noUpdate();
    }
    WebhookDeliveryStatus status = delivery.getStatus();
    if (DeliveryProgress.isFinal(status)) {
      return expireWhenDue(delivery);
    }
    Duration wait = DeliveryProgress.untilNextAttempt(status, clock.instant());
    if (wait.isPositive()) {
      return UpdateControl.<WebhookDelivery>noUpdate().rescheduleAfter(wait);
    }

    DeliveryAttempt attempt;
    try {
      attempt = attempt(delivery);
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
      return UpdateControl.noUpdate(); // nothing recorded: the next operator makes this attempt
    }
    WebhookDeliveryStatus next =
        DeliveryProgress.after(status, attempt, clock.instant(), settings.retries());
    log(delivery, next);
    metrics.webhookAttempted(next.getState());
    writeStatus(delivery, next);
    Duration after =
        DeliveryProgress.isFinal(next)
            ? DeliveryProgress.untilExpiry(next, clock.instant(), settings.retention())
            : DeliveryProgress.untilNextAttempt(next, clock.instant());
    return UpdateControl.<WebhookDelivery>noUpdate().rescheduleAfter(atLeastSoon(after));
  }

  private UpdateControl<WebhookDelivery> expireWhenDue(WebhookDelivery delivery) {
    Duration left =
        DeliveryProgress.untilExpiry(delivery.getStatus(), clock.instant(), settings.retention());
    if (left.isPositive()) {
      return UpdateControl.<WebhookDelivery>noUpdate().rescheduleAfter(left);
    }
    client
        .resources(WebhookDelivery.class)
        .inNamespace(delivery.getMetadata().getNamespace())
        .withName(delivery.getMetadata().getName())
        .delete();
    LOG.debug("{} deleted after its retention of {}", who(delivery), settings.retention());
    return UpdateControl.noUpdate();
  }

  private DeliveryAttempt attempt(WebhookDelivery delivery) throws InterruptedException {
    WebhookDeliverySpec spec = delivery.getSpec();
    // Read as the api-server read it at registration: a URL written with kubectl is checked too.
    TargetUrl url;
    try {
      url = TargetUrl.parse(spec.getUrl());
    } catch (InvalidTargetException invalid) {
      return DeliveryAttempt.refused("spec.url " + invalid.getMessage());
    }
    WebhookSigner signer;
    try {
      signer = signer(delivery.getMetadata().getNamespace(), spec.getSecretRef());
    } catch (SecretProblem problem) {
      return DeliveryAttempt.notSent(problem.getMessage());
    }
    long timestamp = clock.instant().getEpochSecond();
    String signature = signer.sign(spec.getMessageId(), timestamp, spec.getPayload());
    return sender.send(url, spec.getMessageId(), timestamp, signature, spec.getPayload());
  }

  private WebhookSigner signer(String namespace, SecretKeyReference ref) throws SecretProblem {
    if (ref == null || ref.getName() == null || ref.getKey() == null) {
      throw new SecretProblem("spec.secretRef names no Secret key");
    }
    String where = "Secret " + namespace + "/" + ref.getName();
    Secret secret = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
    if (secret == null) {
      throw new SecretProblem(where + " (spec.secretRef) not found");
    }
    String encoded = secret.getData() == null ? null : secret.getData().get(ref.getKey());
    if (encoded == null) {
      throw new SecretProblem(where + " has no key " + ref.getKey());
    }
    try {
      String value = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
      return WebhookSigner.ofSecret(value.strip());
    } catch (IllegalArgumentException e) {
      throw new SecretProblem(
          where + " key " + ref.getKey() + " is not a webhook secret: " + e.getMessage());
    }
  }

  private void writeStatus(WebhookDelivery delivery, WebhookDeliveryStatus status) {
    try {
      StatusWriteLoop.write(
          client,
          delivery,
          ATTEMPTS,
          code -> code == 409,
          () -> {
            WebhookDelivery latest =
                client
                    .resources(WebhookDelivery.class)
                    .inNamespace(delivery.getMetadata().getNamespace())
                    .withName(delivery.getMetadata().getName())
                    .get();
            return latest == null
                    || !delivery.getMetadata().getUid().equals(latest.getMetadata().getUid())
                ? null
                : latest;
          },
          next -> {
            next.setStatus(status);
            return true;
          });
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      // deleted meanwhile (its owner went): nothing to record
    }
  }

  private static void log(WebhookDelivery delivery, WebhookDeliveryStatus next) {
    WebhookDeliverySpec spec = delivery.getSpec();
    String outcome =
        switch (next.getState()) {
          case DELIVERED -> "delivered (HTTP " + next.getLastStatusCode() + ")";
          case PENDING ->
              "failed (" + next.getLastError() + "); next attempt at " + next.getNextAttemptAt();
          case FAILED -> "failed (" + next.getLastError() + "); giving up";
        };
    LOG.info(
        "{} {} to {}: attempt {} {}",
        who(delivery),
        spec.getEvent().value(),
        WebhookUrls.origin(spec.getUrl()),
        next.getAttempts(),
        outcome);
  }

  private static String who(WebhookDelivery delivery) {
    return "WebhookDelivery("
        + delivery.getMetadata().getNamespace()
        + "/"
        + delivery.getMetadata().getName()
        + ")";
  }

  private static Duration atLeastSoon(Duration duration) {
    return duration.compareTo(SOON) < 0 ? SOON : duration;
  }

  @Override
  public void close() {
    sender.close();
  }

  /** The signing secret cannot be read; it may appear or be fixed before the next attempt. */
  private static final class SecretProblem extends Exception {
    SecretProblem(String message) {
      super(message);
    }
  }
}
