package dev.threadline.crds.usage;

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
 * A user's usage in one calendar month (UTC), in the user's namespace, named {@code
 * usage-<yyyy>-<mm>}. Only the operator writes it, and only its status: a tenant who may edit
 * objects in the namespace cannot edit the figures without the status subresource.
 */
@Group(ThreadlineGroup.GROUP)
@Version(ThreadlineGroup.VERSION)
@Plural("usageledgers")
@ShortNames("tlu")
@Categories(ThreadlineGroup.CATEGORY)
@AdditionalPrinterColumn(
    name = "Period",
    jsonPath = ".spec.period",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Cost(USD)",
    jsonPath = ".status.totalCost",
    type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
    name = "Runs",
    jsonPath = ".status.runs",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class UsageLedger extends CustomResource<UsageLedgerSpec, UsageLedgerStatus>
    implements Namespaced {}
