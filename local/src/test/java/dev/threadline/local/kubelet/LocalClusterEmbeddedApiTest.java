package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.local.kubeapi.EmbeddedApiSettings;
import dev.threadline.local.kubeapi.EmbeddedKubernetesApi;
import dev.threadline.local.podlog.PodLogSource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubelet and controllers against the embedded API, as the local mode runs them. */
class LocalClusterEmbeddedApiTest {
  private static final String NS = TestPods.NAMESPACE;

  @TempDir Path dataDir;

  @Test
  void cronJobRunsAJobWhosePodLogsAndWhoseOwnerDeletionCascades() {
    MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofMinutes(10)));
    AtomicReference<LocalCluster> started = new AtomicReference<>();
    PodLogSource logs = (ns, pod, container) -> started.get().podLogs().find(ns, pod, container);
    try (EmbeddedKubernetesApi api =
            EmbeddedKubernetesApi.start(
                EmbeddedApiSettings.builder().port(0).podLogs(logs).build());
        KubernetesClient client = api.newClient();
        LocalCluster cluster =
            LocalCluster.start(
                client,
                KubeletSettings.of(dataDir).withTerminationGrace(Duration.ofSeconds(1)),
                TestPods.busybox(),
                clock)) {
      started.set(cluster);
      client
          .resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
          .create();
      client
          .resource(
              new CronJobBuilder()
                  .withNewMetadata()
                  .withName("nightly")
                  .withNamespace(NS)
                  .endMetadata()
                  .withNewSpec()
                  .withSchedule("* * * * *")
                  .withNewJobTemplate()
                  .withNewSpec()
                  .withNewTemplate()
                  .withSpec(TestPods.build("unused", "echo scheduled run").getSpec())
                  .endTemplate()
                  .endSpec()
                  .endJobTemplate()
                  .endSpec()
                  .build())
          .create();

      CronJob done =
          await()
              .atMost(Duration.ofSeconds(8))
              .until(
                  () -> client.batch().v1().cronjobs().inNamespace(NS).withName("nightly").get(),
                  cronJob ->
                      cronJob.getStatus() != null
                          && cronJob.getStatus().getLastSuccessfulTime() != null);
      assertThat(done.getStatus().getActive()).isNullOrEmpty();
      Pod pod = client.pods().inNamespace(NS).list().getItems().getFirst();
      assertThat(
              new String(
                  cluster
                      .podLogs()
                      .find(NS, pod.getMetadata().getName(), null)
                      .orElseThrow()
                      .snapshot(),
                  StandardCharsets.UTF_8))
          .isEqualTo("scheduled run\n");

      client.resource(done).delete();

      await()
          .atMost(Duration.ofSeconds(5))
          .until(() ->
              client.batch().v1().jobs().inNamespace(NS).list().getItems().isEmpty()
                  && client.pods().inNamespace(NS).list().getItems().isEmpty());
    }
  }
}
