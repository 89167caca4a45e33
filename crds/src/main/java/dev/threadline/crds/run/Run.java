package dev.threadline.crds.run;

import dev.threadline.crds.common.ThreadlineGroup;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalSelectableField;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One user message and its answer, owned by its Thread. The operator routes it (direct model
 * answer, or an agent Pod) and records the outcome in its status.
 *
 * <p>{@code status.route} and {@code status.phase} are selectable (Kubernetes 1.31+): the worker
 * watches only computer runs ({@code fieldSelector=status.route=computer}).
 */
@Group(ThreadlineGroup.GROUP)
@Version(ThreadlineGroup.VERSION)
@Plural("runs")
@ShortNames("tlr")
@Categories(ThreadlineGroup.CATEGORY)
@AdditionalPrinterColumn(
    name = "Thread",
    jsonPath = ".spec.thread",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Phase",
    jsonPath = ".status.phase",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Route",
    jsonPath = ".status.route",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Start",
    jsonPath = ".status.start",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Waiting",
    jsonPath = ".status.waitingFor.kind",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Duration(ms)",
    jsonPath = ".status.durationMs",
    type = AdditionalPrinterColumn.Type.INTEGER,
    priority = 1)
@AdditionalSelectableField(jsonPath = ".status.route")
@AdditionalSelectableField(jsonPath = ".status.phase")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class Run extends CustomResource<RunSpec, RunStatus> implements Namespaced {}
