package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.support.Owners;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes the Job of one scheduled run of a CronJob, as the CronJob controller does: named {@code
 * <cronjob>-<scheduled time in epoch minutes>}, so creating the same run twice is a conflict rather
 * than a duplicate.
 */
final class CronJobJobFactory {
  static final String SCHEDULED_TIMESTAMP = "batch.kubernetes.io/cronjob-scheduled-timestamp";

  private final KubernetesSerialization serialization;

  CronJobJobFactory(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  static String jobName(String cronJobName, Instant scheduledTime) {
    return cronJobName + "-" + scheduledTime.getEpochSecond() / 60;
  }

  Job jobFor(CronJob cronJob, Instant scheduledTime, ZoneId zone) {
    JobTemplateSpec template = cronJob.getSpec().getJobTemplate();
    ObjectMeta templateMeta =
        template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    Map<String, String> annotations =
        new LinkedHashMap<>(
            templateMeta.getAnnotations() == null ? Map.of() : templateMeta.getAnnotations());
    annotations.put(
        SCHEDULED_TIMESTAMP,
        DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(scheduledTime.atZone(zone)));
    return new JobBuilder()
        .withNewMetadata()
        .withName(jobName(cronJob.getMetadata().getName(), scheduledTime))
        .withNamespace(cronJob.getMetadata().getNamespace())
        .withLabels(templateMeta.getLabels())
        .withAnnotations(annotations)
        .withOwnerReferences(List.of(Owners.controllerReference(cronJob)))
        .endMetadata()
        .withSpec(serialization.clone(template.getSpec()))
        .build();
  }
}
