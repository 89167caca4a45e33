package dev.threadline.operator.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.function.UnaryOperator;

/**
 * fabric8's CRUD mock with one more rule of a real API server: a PUT (of the status or of the
 * object) that carries a stale {@code resourceVersion} is refused with 409 (the stock mock accepts
 * it), so tests of concurrent writers see the conflicts they would see in a cluster. Writes are
 * serialised to keep the check and the write together.
 */
public final class StrictStatusDispatcher extends KubernetesMixedDispatcher {

  private StrictStatusDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses) {
    super(responses);
  }

  /** A started CRUD mock server with this dispatcher. */
  public static KubernetesMockServer startServer() {
    return startServer(UnaryOperator.identity());
  }

  /** The same, each request passed through {@code around} (e.g. to observe it) first. */
  public static KubernetesMockServer startServer(UnaryOperator<Dispatcher> around) {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            responses,
            around.apply(new StrictStatusDispatcher(responses)),
            false);
    server.init();
    return server;
  }

  /** A GET of {@code objectPath} with {@code request}'s headers: what the store holds there now. */
  public static RecordedRequest readOf(RecordedRequest request, String objectPath) {
    return new RecordedRequest(
        "GET " + objectPath + " HTTP/1.1",
        HttpMethod.GET,
        objectPath,
        request.getHeaders(),
        new Buffer());
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    if (request.method() == HttpMethod.GET) {
      return super.dispatch(request);
    }
    synchronized (this) {
      String path = request.getPath().split("\\?", 2)[0];
      if (request.method() == HttpMethod.PUT) {
        // Reading the body consumes it: hand the rest of the mock a copy.
        String body = request.getUtf8Body();
        request =
            new RecordedRequest(
                request.getRequestLine(),
                request.method(),
                request.getPath(),
                request.getHeaders(),
                new Buffer().writeUtf8(body));
        String expected =
            Serialization.unmarshal(body, JsonNode.class)
                .path("metadata")
                .path("resourceVersion")
                .asText("");
        String objectPath =
            path.endsWith("/status") ? path.substring(0, path.length() - "/status".length()) : path;
        MockResponse current = super.dispatch(readOf(request, objectPath));
        if (!expected.isEmpty() && current.code() == 200) {
          String actual =
              Serialization.unmarshal(current.getBody().readUtf8(), JsonNode.class)
                  .path("metadata")
                  .path("resourceVersion")
                  .asText("");
          if (!expected.equals(actual)) {
            return new MockResponse()
                .setResponseCode(409)
                .setBody(
                    "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"reason\":\"Conflict\",\"code\":409,\"message\":\"the"
                        + " object has been modified; please apply your changes to the latest"
                        + " version and try again\"}");
          }
        }
      }
      return super.dispatch(request);
    }
  }
}
