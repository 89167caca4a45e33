package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.support.Owners;
import dev.threadline.local.kubelet.support.RandomSuffix;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Makes a Job's Pod from its template, labelled and owned the way the Job controller does it. */
final class JobPodFactory {
  static final String JOB_NAME = "job-name";
  static final String BATCH_JOB_NAME = "batch.kubernetes.io/job-name";
  static final String CONTROLLER_UID = "controller-uid";
  static final String BATCH_CONTROLLER_UID = "batch.kubernetes.io/controller-uid";

  private final KubernetesSerialization serialization;

  JobPodFactory(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  Pod podFor(Job job) {
    PodTemplateSpec template = job.getSpec().getTemplate();
    ObjectMeta templateMeta =
        template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    Map<String, String> labels =
        new LinkedHashMap<>(templateMeta.getLabels() == null ? Map.of() : templateMeta.getLabels());
    labels.putAll(labelsFor(job));
    return new PodBuilder()
        .withNewMetadata()
        .withName(job.getMetadata().getName() + "-" + RandomSuffix.of(5))
        .withNamespace(job.getMetadata().getNamespace())
        .withLabels(labels)
        .withAnnotations(templateMeta.getAnnotations())
        .withOwnerReferences(List.of(Owners.controllerReference(job)))
        .endMetadata()
        .withSpec(
            serialization.clone(template.getSpec() == null ? new PodSpec() : template.getSpec()))
        .build();
  }

  static Map<String, String> labelsFor(Job job) {
    String name = job.getMetadata().getName();
    String uid = job.getMetadata().getUid();
    return Map.of(
        JOB_NAME, name, BATCH_JOB_NAME, name, CONTROLLER_UID, uid, BATCH_CONTROLLER_UID, uid);
  }
}
