package dev.threadline.operator.webhooks;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.webhook.WebhookDelivery;
import dev.threadline.crds.webhook.WebhookDeliverySpec;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.crds.webhook.WebhookSubject;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an event into WebhookDelivery resources, one per endpoint, and creates them. Each is named
 * after its message id, so creating it again (a second decision, a restarted operator) finds it
 * there already; each is owned by the resource the endpoint is configured on, so it goes with it.
 */
public final class WebhookDeliveries {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDeliveries.class);

  private final KubernetesClient client;

  public WebhookDeliveries(KubernetesClient client) {
    this.client = client;
  }

  /**
   * The deliveries of one event about {@code subject} to {@code recipients}; nothing is written.
   */
  public static List<WebhookDelivery> plan(
      HasMetadata subject,
      WebhookEvent event,
      String occurrence,
      Instant timestamp,
      Map<String, ?> data,
      List<WebhookRecipient> recipients) {
    String namespace = subject.getMetadata().getNamespace();
    WebhookSubject about = subjectOf(subject);
    List<WebhookDelivery> deliveries = new ArrayList<>();
    for (WebhookRecipient recipient : recipients) {
      HasMetadata owner = recipient.configuredOn();
      WebhookSubject configuredOn = subjectOf(owner);
      String url = recipient.endpoint().getUrl();
      String id = WebhookMessage.messageId(namespace, about, event, occurrence, configuredOn, url);
      WebhookMessage message = WebhookMessage.of(id, event, timestamp, data);

      WebhookDeliverySpec spec = new WebhookDeliverySpec();
      spec.setMessageId(id);
      spec.setEvent(event);
      spec.setSubject(about);
      spec.setConfiguredOn(configuredOn);
      spec.setUrl(url);
      SecretKeyReference secret = recipient.endpoint().getSecretRef();
      spec.setSecretRef(new SecretKeyReference(secret.getName(), secret.getKey()));
      spec.setPayload(message.body());

      WebhookDelivery delivery = new WebhookDelivery();
      delivery.setMetadata(
          new ObjectMetaBuilder()
              .withNamespace(namespace)
              .withName(WebhookMessage.deliveryName(id))
              .addToLabels(Labels.MANAGED_BY, Labels.MANAGER)
              .addToLabels(threadOf(subject))
              .withOwnerReferences(OwnerReferences.controller(owner))
              .build());
      delivery.setSpec(spec);
      deliveries.add(delivery);
    }
    return deliveries;
  }

  /**
   * Creates each delivery that does not exist yet; one that does was queued before and is left
   * alone.
   */
  public void create(List<WebhookDelivery> deliveries) {
    for (WebhookDelivery delivery : deliveries) {
      if (IdempotentCreate.createUnlessExists(client, delivery)) {
        LOG.info(
            "WebhookDelivery({}/{}) queued: {} about {} {} to {}",
            delivery.getMetadata().getNamespace(),
            delivery.getMetadata().getName(),
            delivery.getSpec().getEvent().value(),
            delivery.getSpec().getSubject().getKind(),
            delivery.getSpec().getSubject().getName(),
            WebhookUrls.origin(delivery.getSpec().getUrl()));
      } else {
        LOG.debug(
            "WebhookDelivery({}/{}) exists already",
            delivery.getMetadata().getNamespace(),
            delivery.getMetadata().getName());
      }
    }
  }

  /** A run's deliveries carry its thread's label, so that they can be found by thread. */
  private static Map<String, String> threadOf(HasMetadata subject) {
    return subject instanceof Run run && run.getSpec() != null && run.getSpec().getThread() != null
        ? Map.of(Labels.THREAD, run.getSpec().getThread())
        : Map.of();
  }

  static WebhookSubject subjectOf(HasMetadata resource) {
    return new WebhookSubject(resource.getKind(), resource.getMetadata().getName());
  }
}
