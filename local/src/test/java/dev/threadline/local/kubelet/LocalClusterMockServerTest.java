package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@EnableKubernetesMockClient(crud = true)
class LocalClusterMockServerTest {
  private static final String NS = TestPods.NAMESPACE;

  KubernetesClient client;
  @TempDir Path dataDir;

  @Test
  void cronJobRunsAJobWhosePodLogsAndWhoseOwnerDeletionCascades() {
    MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofMinutes(10)));
    try (LocalCluster cluster = LocalCluster.start(client, KubeletSettings.of(dataDir).withTerminationGrace(Duration.ofSeconds(1)),
        TestPods.busybox(), List.of(), clock)) {
      client.resource(new CronJobBuilder()
          .withNewMetadata().withName("nightly").withNamespace(NS).endMetadata()
          .withNewSpec().withSchedule("* * * * *")
              .withNewJobTemplate().withNewSpec().withNewTemplate()
                  .withSpec(TestPods.build("unused", "echo scheduled run").getSpec())
              .endTemplate().endSpec().endJobTemplate()
          .endSpec().build()).create();

      CronJob done = await().atMost(Duration.ofSeconds(8))
          .until(() -> client.batch().v1().cronjobs().inNamespace(NS).withName("nightly").get(),
              cronJob -> cronJob.getStatus() != null && cronJob.getStatus().getLastSuccessfulTime() != null);
      assertThat(done.getStatus().getActive()).isNullOrEmpty();
      Pod pod = client.pods().inNamespace(NS).list().getItems().getFirst();
      assertThat(new String(cluster.podLogs().find(NS, pod.getMetadata().getName(), null).orElseThrow().snapshot(),
          StandardCharsets.UTF_8)).isEqualTo("scheduled run\n");

      client.resource(done).delete();

      await().atMost(Duration.ofSeconds(5)).until(() -> client.batch().v1().jobs().inNamespace(NS).list().getItems().isEmpty()
          && client.pods().inNamespace(NS).list().getItems().isEmpty());
    }
  }
}
