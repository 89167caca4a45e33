package dev.threadline.crds.schedule;

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
 * A task that runs on its own: once at {@code scheduledTime} ({@code one-time}) or on a cron
 * ({@code recurring}). Every firing creates a Thread and its first Run; the status counts them.
 */
@Group(ThreadlineGroup.GROUP)
@Version(ThreadlineGroup.VERSION)
@Plural("schedules")
@ShortNames({"tls", "tlsched"})
@Categories(ThreadlineGroup.CATEGORY)
@AdditionalPrinterColumn(
    name = "Type",
    jsonPath = ".spec.scheduleType",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Cron",
    jsonPath = ".spec.cronExpression",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Enabled",
    jsonPath = ".spec.enabled",
    type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
    name = "Next Run",
    jsonPath = ".status.nextRunAt",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Runs",
    jsonPath = ".status.runCount",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
// The name labels every Thread and Run the schedule makes (label values: 63 characters) and names
// its CronJob, whose Jobs add 11 characters to it.
@ValidationRule(
    value = "size(self.metadata.name) <= 52",
    message = "a Schedule's name may have at most 52 characters")
// REST clients see an object only through its id: a name outside the scheme would be invisible.
@ValidationRule(
    value = ResourceIds.NAME_RULE_START + Schedule.ID_PREFIX + ResourceIds.NAME_RULE_END,
    message =
        "a Schedule's name is sched"
            + ResourceIds.NAME_RULE_MESSAGE_END
            + " (e.g. sched-daily-report)")
public class Schedule extends CustomResource<ScheduleSpec, ScheduleStatus> implements Namespaced {
  /** The prefix of its REST ids ({@code sched_…}) and names ({@code sched-…}). */
  public static final String ID_PREFIX = "sched";

  /** The {@code spec.scheduleType} of a schedule that fires once. */
  public static final String ONE_TIME = "one-time";

  /** The {@code spec.scheduleType} of a schedule that fires on its cron expression. */
  public static final String RECURRING = "recurring";
}
