package dev.threadline.crds.environment;

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
 * An isolated execution context: runtimes, packages, variables, MCP servers and the container image
 * built from them.
 */
@Group(ThreadlineGroup.GROUP)
@Categories(ThreadlineGroup.CATEGORY)
@Version(ThreadlineGroup.VERSION)
@Plural("environments")
@ShortNames({"tle", "tlenv"})
@AdditionalPrinterColumn(
    name = "Display Name",
    jsonPath = ".spec.displayName",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Build",
    jsonPath = ".status.buildStatus",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Image",
    jsonPath = ".status.imageTag",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Default",
    jsonPath = ".spec.isDefault",
    type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
    name = "Pool Ready",
    jsonPath = ".status.warmPool.ready",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Pool Claimed",
    jsonPath = ".status.warmPool.claimed",
    type = AdditionalPrinterColumn.Type.INTEGER,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
// REST clients see an object only through its id: a name outside the scheme would be invisible.
@ValidationRule(
    value = ResourceIds.NAME_RULE_START + Environment.ID_PREFIX + ResourceIds.NAME_RULE_END,
    message =
        "an Environment's name is env"
            + ResourceIds.NAME_RULE_MESSAGE_END
            + " (e.g. env-python-data)")
public class Environment extends CustomResource<EnvironmentSpec, EnvironmentStatus>
    implements Namespaced {
  /** The prefix of its REST ids ({@code env_…}) and names ({@code env-…}). */
  public static final String ID_PREFIX = "env";
}
