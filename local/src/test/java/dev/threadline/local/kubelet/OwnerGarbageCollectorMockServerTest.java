package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.agent.Agent;
import dev.threadline.local.kubelet.controllers.OwnerGarbageCollector;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class OwnerGarbageCollectorMockServerTest {
  private static final String NS = TestPods.NAMESPACE;

  KubernetesClient client;
  private OwnerGarbageCollector collector;

  @BeforeEach
  void start() {
    collector = new OwnerGarbageCollector(client).watch(Agent.class);
    collector.start();
  }

  @AfterEach
  void stop() {
    collector.close();
  }

  @Test
  void deletingAnOwnerCascadesThroughItsDependents() {
    Agent agent = new Agent();
    agent.setMetadata(new ObjectMetaBuilder().withName("agent").withNamespace(NS).build());
    agent = client.resource(agent).create();
    Job job = client.resource(new JobBuilder().withMetadata(owned("job", agent)).withNewSpec().withNewTemplate()
        .withSpec(TestPods.build("unused", "true").getSpec()).endTemplate().endSpec().build()).create();
    client.resource(TestPods.shell("job-pod", "true").withMetadata(owned("job-pod", job)).build()).create();
    client.resource(new ConfigMapBuilder().withMetadata(owned("job-config", job)).build()).create();
    client.resource(new SecretBuilder().withMetadata(owned("agent-secret", agent)).build()).create();
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("unrelated").withNamespace(NS).endMetadata().build()).create();

    client.resource(agent).delete();

    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      assertThat(client.batch().v1().jobs().inNamespace(NS).withName("job").get()).isNull();
      assertThat(client.pods().inNamespace(NS).withName("job-pod").get()).isNull();
      assertThat(client.configMaps().inNamespace(NS).withName("job-config").get()).isNull();
      assertThat(client.secrets().inNamespace(NS).withName("agent-secret").get()).isNull();
    });
    assertThat(client.configMaps().inNamespace(NS).withName("unrelated").get()).isNotNull();
  }

  @Test
  void dependentWithAnotherLivingOwnerStays() {
    ConfigMap first = client.resource(plainConfigMap("first")).create();
    ConfigMap second = client.resource(plainConfigMap("second")).create();
    ConfigMap shared = new ConfigMapBuilder().withNewMetadata().withName("shared").withNamespace(NS)
        .withOwnerReferences(referenceTo(first), referenceTo(second)).endMetadata().build();
    client.resource(shared).create();

    client.resource(first).delete();

    await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2))
        .until(() -> client.configMaps().inNamespace(NS).withName("shared").get() != null);
    client.resource(second).delete();
    await().atMost(Duration.ofSeconds(5)).until(() -> client.configMaps().inNamespace(NS).withName("shared").get() == null);
  }

  @Test
  void objectWhoseOwnerIsAlreadyGoneIsDeleted() {
    client.resource(new SecretBuilder().withNewMetadata().withName("orphan").withNamespace(NS)
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job").withName("gone")
            .withUid("0d7e2b1c-0000-4000-8000-000000000000").withController(true).build())
        .endMetadata().build()).create();

    await().atMost(Duration.ofSeconds(5)).until(() -> client.secrets().inNamespace(NS).withName("orphan").get() == null);
  }

  private static ConfigMap plainConfigMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata().build();
  }

  private static io.fabric8.kubernetes.api.model.ObjectMeta owned(String name, HasMetadata owner) {
    return new ObjectMetaBuilder().withName(name).withNamespace(NS).withOwnerReferences(referenceTo(owner)).build();
  }

  private static OwnerReference referenceTo(HasMetadata owner) {
    return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
        .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).build();
  }
}
