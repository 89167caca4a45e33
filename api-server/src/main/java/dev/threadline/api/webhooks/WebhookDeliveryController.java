package dev.threadline.api.webhooks;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /v1/webhooks/deliveries}: the caller's webhook delivery records, read-only. */
@RestController
@RequestMapping(path = "/v1/webhooks/deliveries", produces = MediaType.APPLICATION_JSON_VALUE)
class WebhookDeliveryController {
  private final WebhookDeliveries deliveries;

  WebhookDeliveryController(WebhookDeliveries deliveries) {
    this.deliveries = deliveries;
  }

  /** Newest first; default limit 50, at most 100, as the other lists. */
  @GetMapping
  ListEnvelope<WebhookDeliveryView> list(
      Tenant tenant,
      PageRequest page,
      @RequestParam(required = false) String event,
      @RequestParam(required = false) String state,
      @RequestParam(required = false) String subjectId) {
    return deliveries.list(tenant, WebhookDeliveries.Filter.parse(event, state, subjectId), page);
  }

  @GetMapping("/{deliveryId}")
  WebhookDeliveryView.Single get(Tenant tenant, @PathVariable String deliveryId) {
    return new WebhookDeliveryView.Single(deliveries.get(tenant, deliveryId));
  }
}
