package dev.threadline.operator.support;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The status writes (PUT or PATCH of a {@code …/status} subresource) in the mock server's request
 * log. Reading the log drains it, so one instance per test keeps what it has read.
 */
public final class StatusWrites {
  private final KubernetesMockServer server;
  private final List<String> writes = new CopyOnWriteArrayList<>();

  public StatusWrites(KubernetesMockServer server) {
    this.server = server;
  }

  /** The status writes so far to the object at {@code objectPath} (e.g. {@code …/containers/x}). */
  public long to(String objectPath) throws InterruptedException {
    for (RecordedRequest request = server.takeRequest(1, TimeUnit.MILLISECONDS);
        request != null;
        request = server.takeRequest(1, TimeUnit.MILLISECONDS)) {
      String path = request.getPath().split("\\?", 2)[0];
      if ((request.method() == HttpMethod.PUT || request.method() == HttpMethod.PATCH)
          && path.endsWith("/status")) {
        writes.add(path.substring(0, path.length() - "/status".length()));
      }
    }
    return writes.stream().filter(objectPath::equals).count();
  }
}
