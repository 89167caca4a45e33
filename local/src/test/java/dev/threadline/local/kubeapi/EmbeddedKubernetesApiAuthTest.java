package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bearer tokens, on both listeners alike: the administrator's opens everything, a service account's
 * its namespace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiAuthTest {
  private static final String THREADS = "/apis/threadline.dev/v1alpha1/namespaces/default/threads";

  private EmbeddedKubernetesApi api;

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
  }

  @AfterAll
  void stop() {
    api.close();
  }

  @ParameterizedTest
  @EnumSource(RawHttp.Listener.class)
  void requestsWithoutTheTokenGet401ButProbesAnswer(RawHttp.Listener listener) {
    RawHttp anonymous = listener.client(api, null);
    HttpResponse<String> refused = anonymous.get("/api/v1/namespaces");
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(Json.parse(refused.body()).path("reason").asText()).isEqualTo("Unauthorized");
    assertThat(listener.client(api, "wrong").get("/apis").statusCode()).isEqualTo(401);
    assertThat(anonymous.get("/healthz").statusCode()).isEqualTo(200);
    assertThat(listener.client(api, api.adminToken()).get("/api/v1/namespaces").statusCode())
        .isEqualTo(200);
  }

  @ParameterizedTest
  @EnumSource(RawHttp.Listener.class)
  void aServiceAccountReadsSchedulesAndCreatesThreadsInItsNamespaceOnly(RawHttp.Listener listener) {
    RawHttp trigger =
        listener.client(api, api.issueServiceAccountToken("default", "trigger-" + listener));
    assertThat(
            trigger.get("/apis/threadline.dev/v1alpha1/namespaces/default/schedules").statusCode())
        .isEqualTo(200);
    String thread =
        "{\"apiVersion\":\"threadline.dev/v1alpha1\",\"kind\":\"Thread\","
            + "\"metadata\":{\"name\":\"thread-from-trigger-"
            + listener.ordinal()
            + "\"},\"spec\":{}}";
    assertThat(trigger.send("POST", THREADS, "application/json", thread).statusCode())
        .isEqualTo(201);
    // A firing lists the namespace's threads to count them against the user's thread limit.
    assertThat(trigger.get(THREADS).statusCode()).isEqualTo(200);

    HttpResponse<String> otherNamespace =
        trigger.get("/apis/threadline.dev/v1alpha1/namespaces/kube-system/threads");
    assertThat(otherNamespace.statusCode()).isEqualTo(403);
    assertThat(otherNamespace.body()).contains("system:serviceaccount:default:trigger-" + listener);
    assertThat(trigger.get("/api/v1/namespaces/default/secrets").statusCode()).isEqualTo(403);
    assertThat(
            trigger
                .send(
                    "DELETE",
                    THREADS + "/thread-from-trigger-" + listener.ordinal(),
                    "application/json",
                    "")
                .statusCode())
        .isEqualTo(403);
  }

  @Test
  void theKubeconfigCarriesTheTokenAndOnlyItsOwnerReadsIt(@TempDir Path temp) throws Exception {
    Path kubeconfig = api.writeKubeconfig(temp.resolve("kubeconfig"));
    assertThat(Files.readString(kubeconfig)).contains("token: " + api.adminToken());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig)))
        .isEqualTo("rw-------");
  }
}
