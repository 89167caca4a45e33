package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.operator.support.StrictStatusDispatcher;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The once-at-start decision whether an informer selects Runs by {@code status.route}: only on a
 * server of 1.31 or later that answers the selector's list.
 */
class SelectableFieldsMockServerTest {
  private static final String REFUSED =
      """
      {"kind":"Status","apiVersion":"v1","status":"Failure",\
      "message":"field label not supported: status.route","reason":"BadRequest","code":400}\
      """;

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private KubernetesMockServer server;
  private KubernetesClient client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
      server.destroy();
    }
  }

  /** A CRUD mock that says it is Kubernetes {@code version}, refusing field selectors if asked. */
  private FilterWatchListDeletable<Run, KubernetesResourceList<Run>, Resource<Run>> runsOn(
      String version, boolean refuseFieldSelectors) {
    server =
        StrictStatusDispatcher.startServer(crud ->
            new Dispatcher() {
              @Override
              public MockResponse dispatch(RecordedRequest request) {
                String path = URLDecoder.decode(request.getPath(), StandardCharsets.UTF_8);
                requests.add(path);
                if (path.startsWith("/version")) {
                  String[] parts = version.split("\\.");
                  return new MockResponse()
                      .setResponseCode(200)
                      .setBody("{\"major\":\"" + parts[0] + "\",\"minor\":\"" + parts[1] + "\"}");
                }
                if (refuseFieldSelectors && path.contains("fieldSelector=")) {
                  return new MockResponse().setResponseCode(400).setBody(REFUSED);
                }
                return crud.dispatch(request);
              }
            });
    client = server.createClient();
    return client.resources(Run.class).inNamespace("ns");
  }

  private FilterWatchListDeletable<Run, KubernetesResourceList<Run>, Resource<Run>> decided(
      FilterWatchListDeletable<Run, KubernetesResourceList<Run>, Resource<Run>> runs) {
    return SelectableFields.selectIfServed(client, runs, "status.route", "computer");
  }

  @Test
  void aServerOf131OrLaterThatAnswersTheSelectorIsAskedWithIt() {
    var runs = runsOn("1.32", false);

    var selected = decided(runs);

    assertThat(selected).isNotSameAs(runs);
    assertThat(requests)
        .anyMatch(path ->
            path.startsWith("/apis/threadline.dev/v1alpha1/namespaces/ns/runs?")
                && path.contains("fieldSelector=status.route=computer")
                && path.contains("limit=1"));
    requests.clear();
    selected.list();
    assertThat(requests)
        .singleElement()
        .satisfies(path -> assertThat(path).contains("fieldSelector=status.route=computer"));
  }

  @Test
  void aServerThatRefusesTheSelectorIsWatchedWithoutIt() {
    var runs = runsOn("1.32", true);

    assertThat(decided(runs)).as("a CRD without selectableFields, say").isSameAs(runs);
  }

  @Test
  void anOlderServerIsNotAskedAtAll() {
    var runs = runsOn("1.30", false);

    assertThat(decided(runs)).isSameAs(runs);
    assertThat(requests).noneMatch(path -> path.contains("fieldSelector"));
  }

  @Test
  void versionsAreReadAsProvidersWriteThem() {
    assertThat(SelectableFields.declaresFieldSelectors("1.31")).isTrue();
    assertThat(SelectableFields.declaresFieldSelectors("1.31+")).isTrue();
    assertThat(SelectableFields.declaresFieldSelectors("1.30+")).isFalse();
    assertThat(SelectableFields.declaresFieldSelectors("0.0")).as("fabric8's mock").isFalse();
    assertThat(SelectableFields.declaresFieldSelectors("unknown")).isFalse();
  }
}
