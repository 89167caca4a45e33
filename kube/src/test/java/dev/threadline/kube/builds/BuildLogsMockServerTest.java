package dev.threadline.kube.builds;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient
class BuildLogsMockServerTest {
  static KubernetesMockServer server;
  static KubernetesClient client;

  @Test
  void theNewestPodOfTheJobIsReadContainerAfterContainer() {
    jobPods(
        podNamed("build-1-old", "2026-11-01T00:00:00Z"),
        podNamed("build-1-new", "2026-11-02T00:00:00Z"));
    log("build-1-new", "kaniko", "INFO built\n");
    log("build-1-new", "push", "INFO pushed\n");

    assertThat(new BuildPodLogs(client).read("team-a", "build-1", List.of("kaniko", "push")))
        .contains("INFO built\nINFO pushed\n");
  }

  @Test
  void aJobWithoutPodsHasNoLog() {
    server
        .expect()
        .get()
        .withPath("/api/v1/namespaces/team-b/pods?labelSelector=job-name%3Dbuild-2")
        .andReturn(200, new PodListBuilder().build())
        .once();

    assertThat(new BuildPodLogs(client).read("team-b", "build-2", List.of("kaniko"))).isEmpty();
  }

  @Test
  void theStoredLogIsReadByItsKeyFromTheEnvironmentsConfigMap() {
    server
        .expect()
        .get()
        .withPath("/api/v1/namespaces/team-c/configmaps/env-a-build-logs")
        .andReturn(
            200,
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("env-a-build-logs")
                .endMetadata()
                .withData(Map.of(StoredBuildLogs.IMAGE_BUILD_KEY, "INFO pushed\n"))
                .build())
        .always();

    assertThat(StoredBuildLogs.configMapName("env-a")).isEqualTo("env-a-build-logs");
    assertThat(StoredBuildLogs.read(client, "team-c", "env-a", StoredBuildLogs.IMAGE_BUILD_KEY))
        .contains("INFO pushed\n");
    assertThat(StoredBuildLogs.read(client, "team-c", "env-a", StoredBuildLogs.TEST_BUILD_KEY))
        .isEmpty();
    assertThat(StoredBuildLogs.read(client, "team-c", "env-none", StoredBuildLogs.TEST_BUILD_KEY))
        .isEmpty();
  }

  @Test
  void aLongLogKeepsItsTailFromALineBoundary() {
    String log = "first line\n" + "x".repeat(BuildPodLogs.MAX_LOG) + "\nlast line\n";

    String tail = BuildPodLogs.tail(log);

    assertThat(tail).hasSizeLessThanOrEqualTo(BuildPodLogs.MAX_LOG).endsWith("last line\n");
    assertThat(tail).doesNotContain("first line");
    assertThat(BuildPodLogs.lastLines("a\n\nb\nc\n", 2)).isEqualTo("b\nc");
  }

  private static void jobPods(Pod... pods) {
    server
        .expect()
        .get()
        .withPath("/api/v1/namespaces/team-a/pods?labelSelector=job-name%3Dbuild-1")
        .andReturn(200, new PodListBuilder().addToItems(pods).build())
        .once();
  }

  private static Pod podNamed(String name, String created) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("team-a")
        .withCreationTimestamp(created)
        .endMetadata()
        .build();
  }

  private static void log(String pod, String container, String text) {
    server
        .expect()
        .get()
        .withPath(
            "/api/v1/namespaces/team-a/pods/"
                + pod
                + "/log?pretty=false&container="
                + container
                + "&tailLines=5000")
        .andReturn(200, text)
        .once();
  }
}
