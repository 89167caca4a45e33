package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ApiPathTest {

  @ParameterizedTest
  @CsvSource(
      nullValues = "-",
      value = {
        "/api/v1/pods,                                                  '', v1, -, pods, -, -",
        "/api/v1/namespaces,                                            '', v1, -, namespaces, -,"
            + " -",
        "/api/v1/namespaces/default,                                    '', v1, -, namespaces,"
            + " default, -",
        "/api/v1/namespaces/default/status,                             '', v1, -, namespaces,"
            + " default, status",
        "/api/v1/namespaces/default/pods,                               '', v1, default, pods, -,"
            + " -",
        "/api/v1/namespaces/default/pods/p1,                            '', v1, default, pods, p1,"
            + " -",
        "/api/v1/namespaces/default/pods/p1/log,                        '', v1, default, pods, p1,"
            + " log",
        "/apis/threadline.dev/v1alpha1/namespaces/u1/environments/e/status, threadline.dev,"
            + " v1alpha1, u1, environments, e, status",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x.y,   apiextensions.k8s.io, v1,"
            + " -, customresourcedefinitions, x.y, -",
        "/apis/batch/v1/jobs/,                                          batch, v1, -, jobs, -, -",
      })
  void parsesResourcePaths(
      String raw,
      String group,
      String version,
      String namespace,
      String resource,
      String name,
      String subresource) {
    ApiPath path = ApiPath.parse(raw).orElseThrow();

    assertThat(path).isEqualTo(new ApiPath(group, version, namespace, resource, name, subresource));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/",
        "/api",
        "/api/v1",
        "/apis",
        "/apis/batch",
        "/apis/batch/v1",
        "/random",
        "/api/v1/namespaces/x/pods/y/log/extra",
        "/api/v1/pods/a/b/c",
        "/api/v1//pods",
        "version"
      })
  void rejectsWhatIsNoResourcePath(String raw) {
    assertThat(ApiPath.parse(raw)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/api/v1/namespaces/default/pods/p1/status",
        "/apis/threadline.dev/v1alpha1/environments"
      })
  void rendersBackToItsPath(String raw) {
    assertThat(ApiPath.parse(raw).orElseThrow().path()).isEqualTo(raw);
  }
}
