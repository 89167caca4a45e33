package dev.threadline.local.kubeapi;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The object store: fabric8's CRUD dispatcher, called directly (no HTTP in between). It keeps the
 * objects, resource versions, generations, the status subresource of registered kinds and the watch
 * listeners. Calls block briefly on the dispatcher's lock: never make them on an event loop.
 */
final class CrudStore {
  /** Query parameters the dispatcher understands on reads; everything else only confuses it. */
  private static final List<String> READ_PARAMETERS =
      List.of("watch", "labelSelector", "fieldSelector", "resourceVersion");

  private final KubernetesCrudDispatcher dispatcher =
      new KubernetesCrudDispatcher(BuiltinResources.statusContexts());

  record Response(int code, String body) {
    boolean ok() {
      return code >= 200 && code < 300;
    }
  }

  Response get(String path, Map<String, List<String>> query) {
    return call(HttpMethod.GET, path + readQuery(query), null, null);
  }

  Response get(String path) {
    return call(HttpMethod.GET, path, null, null);
  }

  Response post(String path, String body) {
    return call(HttpMethod.POST, path, "application/json", body);
  }

  Response put(String path, String body) {
    return call(HttpMethod.PUT, path, "application/json", body);
  }

  /** JSON Patch; the store's own merge patch is not RFC 7386 and is never used. */
  Response jsonPatch(String path, String body) {
    return call(HttpMethod.PATCH, path, "application/json-patch+json", body);
  }

  Response delete(String path, Map<String, List<String>> query) {
    return call(HttpMethod.DELETE, path + readQuery(query), null, null);
  }

  /** Opens a watch; the answer carries the listener that sends the events. */
  MockResponse watch(String path, Map<String, List<String>> query) {
    return dispatcher.dispatch(request(HttpMethod.GET, path + readQuery(query), null, null));
  }

  private Response call(HttpMethod method, String pathAndQuery, String contentType, String body) {
    MockResponse response = dispatcher.dispatch(request(method, pathAndQuery, contentType, body));
    Buffer responseBody = response.getBody();
    return new Response(response.code(), responseBody == null ? "" : responseBody.readUtf8());
  }

  private static RecordedRequest request(
      HttpMethod method, String pathAndQuery, String contentType, String body) {
    Headers.Builder headers = Headers.builder();
    if (contentType != null) {
      headers.add("Content-Type", contentType);
    }
    byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    return new RecordedRequest(
        "HTTP/1.1", method, pathAndQuery, headers.build(), new Buffer(bytes));
  }

  /** Rebuilds the query with the parameters the dispatcher needs, encoded so it can parse them. */
  static String readQuery(Map<String, List<String>> query) {
    StringBuilder sb = new StringBuilder();
    for (String name : READ_PARAMETERS) {
      List<String> values = query.get(name);
      if (values == null) {
        continue;
      }
      for (String value : values) {
        sb.append(sb.isEmpty() ? '?' : '&').append(name).append('=').append(encode(value));
      }
    }
    return sb.toString();
  }

  private static String encode(String value) {
    StringBuilder sb = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      boolean plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "-._~!$'()*,;=:@/".indexOf(c) >= 0;
      if (plain) {
        sb.append(c);
      } else {
        sb.append('%')
            .append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return sb.toString();
  }
}
