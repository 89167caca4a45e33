package dev.threadline.operator.environment;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fabric8's CRUD mock, plus Pod logs: the stock dispatcher answers a log path with a list of every
 * object in the store. Tests put the log a build Pod's container "printed" with {@link #setLog}.
 */
final class PodLogDispatcher extends KubernetesMixedDispatcher {
  private static final Pattern LOG_PATH =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/log(\\?.*)?");
  private static final Pattern CONTAINER = Pattern.compile("[?&]container=([^&]+)");

  private final Map<String, String> logs = new ConcurrentHashMap<>();

  PodLogDispatcher() {
    this(new HashMap<>());
  }

  private PodLogDispatcher(Map<ServerRequest, Queue<ServerResponse>> expectations) {
    super(expectations);
  }

  /** The log of the build step (Kaniko's container). */
  void setLog(String namespace, String pod, String log) {
    setLog(namespace, pod, KanikoBuildJob.CONTAINER, log);
  }

  void setLog(String namespace, String pod, String container, String log) {
    logs.put(namespace + "/" + pod + "/" + container, log);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    Matcher matcher = LOG_PATH.matcher(request.getPath());
    if (matcher.matches() && "GET".equals(request.getMethod())) {
      Matcher container = CONTAINER.matcher(matcher.group(3) == null ? "" : matcher.group(3));
      String log =
          logs.get(
              matcher.group(1)
                  + "/"
                  + matcher.group(2)
                  + "/"
                  + (container.find() ? container.group(1) : ""));
      return log == null
          ? new MockResponse().setResponseCode(404).setBody("{\"kind\":\"Status\",\"code\":404}")
          : new MockResponse().setResponseCode(200).setBody(log);
    }
    return super.dispatch(request);
  }
}
