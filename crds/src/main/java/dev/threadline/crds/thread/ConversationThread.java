package dev.threadline.crds.thread;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.ThreadlineGroup;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A conversation: its runs (one per user message) and their totals. The kind is {@code Thread}; the
 * Java name avoids {@link java.lang.Thread}.
 */
@Group(ThreadlineGroup.GROUP)
@Version(ThreadlineGroup.VERSION)
@Kind("Thread")
@Singular("thread")
@Plural("threads")
@ShortNames("tlt")
@Categories(ThreadlineGroup.CATEGORY)
@AdditionalPrinterColumn(
    name = "Title",
    jsonPath = ".spec.title",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Status",
    jsonPath = ".status.status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Messages",
    jsonPath = ".status.messageCount",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Cost",
    jsonPath = ".status.totalCost",
    type = AdditionalPrinterColumn.Type.NUMBER,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
// REST clients see an object only through its id: a name outside the scheme would be invisible.
@ValidationRule(
    value = ResourceIds.NAME_RULE_START + ConversationThread.ID_PREFIX + ResourceIds.NAME_RULE_END,
    message =
        "a Thread's name is thread" + ResourceIds.NAME_RULE_MESSAGE_END + " (e.g. thread-7f3k)")
public class ConversationThread extends CustomResource<ThreadSpec, ThreadStatus>
    implements Namespaced {
  /** The prefix of its REST ids ({@code thread_…}) and names ({@code thread-…}). */
  public static final String ID_PREFIX = "thread";
}
