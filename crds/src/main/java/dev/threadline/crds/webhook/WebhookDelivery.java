package dev.threadline.crds.webhook;

import dev.threadline.crds.common.ThreadlineGroup;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One event on its way to one webhook endpoint: the exact signed body and where its delivery
 * stands. Created by the operator (named after the message id, so deciding twice creates it once),
 * owned by the resource the webhook is configured on, deleted after its retention. Pending retries
 * live here, not in memory, so they survive operator restarts.
 */
@Group(ThreadlineGroup.GROUP)
@Version(ThreadlineGroup.VERSION)
@Plural("webhookdeliveries")
@ShortNames("tlwh")
@Categories(ThreadlineGroup.CATEGORY)
@AdditionalPrinterColumn(
    name = "Event",
    jsonPath = ".spec.event",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Subject",
    jsonPath = ".spec.subject.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "State",
    jsonPath = ".status.state",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Attempts",
    jsonPath = ".status.attempts",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "URL",
    jsonPath = ".spec.url",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class WebhookDelivery extends CustomResource<WebhookDeliverySpec, WebhookDeliveryStatus>
    implements Namespaced {}
