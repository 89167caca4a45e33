package dev.threadline.crds.container;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.ThreadlineGroup;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A container of the cloud API ({@code ctr_*}): an agent Pod with a workspace that keeps running
 * and serves a file API. Ephemeral containers are deleted after {@code timeoutMs} without use;
 * persistent ones live until deleted, and their workspace outlives the Pod.
 */
@Group(ThreadlineGroup.GROUP)
@Version(ThreadlineGroup.VERSION)
@Plural("containers")
@ShortNames({"tlc", "tlctr"})
@Categories(ThreadlineGroup.CATEGORY)
@AdditionalPrinterColumn(
    name = "Status",
    jsonPath = ".status.phase",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Persistent",
    jsonPath = ".spec.persistent",
    type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
    name = "Port",
    jsonPath = ".status.port",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Start",
    jsonPath = ".status.start",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Last Activity",
    jsonPath = ".status.lastActivityAt",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
// The name becomes the Pod's name and, with a suffix, its Secrets' and claim's names and label
// values.
@ValidationRule(
    value = "size(self.metadata.name) <= 52",
    message = "a Container's name may have at most 52 characters")
// REST clients see an object only through its id: a name outside the scheme would be invisible.
@ValidationRule(
    value = ResourceIds.NAME_RULE_START + Container.ID_PREFIX + ResourceIds.NAME_RULE_END,
    message =
        "a Container's name is ctr" + ResourceIds.NAME_RULE_MESSAGE_END + " (e.g. ctr-build-box)")
public class Container extends CustomResource<ContainerSpec, ContainerStatus>
    implements Namespaced {
  /** The prefix of its REST ids ({@code ctr_…}) and names ({@code ctr-…}). */
  public static final String ID_PREFIX = "ctr";
}
