package dev.threadline.api.webhooks;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.webhook.WebhookDelivery;
import dev.threadline.crds.webhook.WebhookDeliverySpec;
import dev.threadline.crds.webhook.WebhookDeliveryState;
import dev.threadline.crds.webhook.WebhookDeliveryStatus;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.crds.webhook.WebhookSubject;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The caller's webhook delivery records, read from the informer cache of the tenant's own
 * namespace: another user's record is not listed and is a 404, like a missing one. The operator
 * writes them; this API only reads.
 */
public final class WebhookDeliveries {
  /** Newest first; the name breaks ties within one second. */
  static final Comparator<WebhookDelivery> NEWEST_FIRST =
      Comparator.comparing(
              WebhookDeliveries::createdAt, Comparator.nullsLast(Comparator.reverseOrder()))
          .thenComparing(delivery -> delivery.getMetadata().getName(), Comparator.reverseOrder());

  private final ManagedInformer<WebhookDelivery> cache;

  WebhookDeliveries(ManagedInformer<WebhookDelivery> cache) {
    this.cache = cache;
  }

  /** The filters of {@code GET /v1/webhooks/deliveries}; null means "any". Bad values are 400s. */
  public record Filter(WebhookEvent event, WebhookDeliveryState state, String subjectId)
      implements Predicate<WebhookDelivery> {
    static Filter parse(String event, String state, String subjectId) {
      WebhookEvent parsedEvent =
          event == null
              ? null
              : WebhookEvent.find(event)
                  .orElseThrow(() ->
                      ApiException.badRequest(
                          "event",
                          "must be one of " + String.join(", ", WebhookEvent.allValues())));
      WebhookDeliveryState parsedState =
          state == null
              ? null
              : Arrays.stream(WebhookDeliveryState.values())
                  .filter(value -> value.value().equals(state))
                  .findFirst()
                  .orElseThrow(() ->
                      ApiException.badRequest(
                          "state", "must be one of pending, delivered, failed"));
      return new Filter(
          parsedEvent,
          parsedState,
          subjectId == null || subjectId.isBlank() ? null : subjectId.strip());
    }

    @Override
    public boolean test(WebhookDelivery delivery) {
      WebhookDeliverySpec spec = spec(delivery);
      return (event == null || event == spec.getEvent())
          && (state == null || state == stateOf(delivery))
          && (subjectId == null || isAbout(delivery, subjectId));
    }

    /**
     * The subject's name is the id's Kubernetes name ({@code run_abc-1}, {@code env_x}); a thread
     * id also matches the deliveries of the thread's runs, which carry the thread's label.
     */
    private static boolean isAbout(WebhookDelivery delivery, String id) {
      Optional<String> name = ResourceIds.toName(id);
      if (name.isEmpty()) {
        return false;
      }
      WebhookSubject subject = spec(delivery).getSubject();
      Map<String, String> labels = delivery.getMetadata().getLabels();
      return (subject != null && name.get().equals(subject.getName()))
          || (labels != null && name.get().equals(labels.get(Labels.THREAD)));
    }
  }

  public ListEnvelope<WebhookDeliveryView> list(Tenant tenant, Filter filter, PageRequest page) {
    List<WebhookDelivery> matching = live(tenant).filter(filter).sorted(NEWEST_FIRST).toList();
    return page.apply(matching).map(WebhookDeliveries::toView);
  }

  public WebhookDeliveryView get(Tenant tenant, String id) {
    return live(tenant)
        .filter(delivery -> Objects.equals(id, spec(delivery).getMessageId()))
        .findFirst()
        .map(WebhookDeliveries::toView)
        .orElseThrow(() -> ApiException.notFound("Webhook delivery " + id));
  }

  private Stream<WebhookDelivery> live(Tenant tenant) {
    return cache.inNamespace(tenant.namespace()).stream()
        .filter(delivery -> delivery.getMetadata().getDeletionTimestamp() == null);
  }

  static WebhookDeliveryView toView(WebhookDelivery delivery) {
    WebhookDeliverySpec spec = spec(delivery);
    WebhookDeliveryStatus status =
        Optional.ofNullable(delivery.getStatus()).orElseGet(WebhookDeliveryStatus::new);
    return new WebhookDeliveryView(
        spec.getMessageId(),
        spec.getEvent() == null ? null : spec.getEvent().value(),
        reference(spec.getSubject()),
        reference(spec.getConfiguredOn()),
        spec.getUrl(),
        stateOf(delivery).value(),
        Objects.requireNonNullElse(status.getAttempts(), 0),
        status.getLastStatusCode(),
        status.getLastError(),
        Timestamps.normalize(status.getLastAttemptAt()),
        Timestamps.normalize(status.getNextAttemptAt()),
        Timestamps.normalize(status.getFinishedAt()),
        Timestamps.format(createdAt(delivery)));
  }

  private static WebhookDeliveryView.Reference reference(WebhookSubject subject) {
    if (subject == null) {
      return null;
    }
    String name = subject.getName();
    // A name of the operator's making always maps to an id; anything else is shown as it is.
    String id = ResourceIds.isValidName(name) ? ResourceIds.toId(name) : name;
    return new WebhookDeliveryView.Reference(subject.getKind(), id);
  }

  private static WebhookDeliveryState stateOf(WebhookDelivery delivery) {
    return Optional.ofNullable(delivery.getStatus())
        .map(WebhookDeliveryStatus::getState)
        .orElse(WebhookDeliveryState.PENDING);
  }

  private static WebhookDeliverySpec spec(WebhookDelivery delivery) {
    return Objects.requireNonNullElseGet(delivery.getSpec(), WebhookDeliverySpec::new);
  }

  private static Instant createdAt(WebhookDelivery delivery) {
    return Timestamps.parse(delivery.getMetadata().getCreationTimestamp()).orElse(null);
  }
}
