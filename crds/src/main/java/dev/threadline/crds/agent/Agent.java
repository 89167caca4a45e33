package dev.threadline.crds.agent;

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

/** An agent: which model answers, with which instructions. Threads name one by `agentId`. */
@Group(ThreadlineGroup.GROUP)
@Categories(ThreadlineGroup.CATEGORY)
@Version(ThreadlineGroup.VERSION)
@Plural("agents")
@ShortNames("tla")
@AdditionalPrinterColumn(
    name = "Provider",
    jsonPath = ".spec.provider",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Model",
    jsonPath = ".spec.model",
    type = AdditionalPrinterColumn.Type.STRING)
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
    value = ResourceIds.NAME_RULE_START + Agent.ID_PREFIX + ResourceIds.NAME_RULE_END,
    message =
        "an Agent's name is agent" + ResourceIds.NAME_RULE_MESSAGE_END + " (e.g. agent-reviewer)")
public class Agent extends CustomResource<AgentSpec, AgentStatus> implements Namespaced {
  /** The prefix of its REST ids ({@code agent_…}) and names ({@code agent-…}). */
  public static final String ID_PREFIX = "agent";
}
