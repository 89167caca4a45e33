package dev.threadline.crds.container;

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
public class Container extends CustomResource<ContainerSpec, ContainerStatus>
    implements Namespaced {}
