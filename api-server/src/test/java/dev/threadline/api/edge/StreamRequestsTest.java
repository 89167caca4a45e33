package dev.threadline.api.edge;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** Which requests count against the stream caps before their body is read. */
class StreamRequestsTest {
  @Test
  void messagePostsStreamResumesAndEveryA2aCallMayStream() {
    assertThat(StreamRequests.mayStream(request("POST", "/v1/threads"))).isTrue();
    assertThat(StreamRequests.mayStream(request("POST", "/v1/threads/thread_a/messages"))).isTrue();
    assertThat(StreamRequests.mayStream(request("GET", "/v1/threads/thread_a/stream"))).isTrue();
    assertThat(StreamRequests.mayStream(request("POST", "/a2a"))).isTrue();
    assertThat(StreamRequests.mayStream(request("POST", "/a2a/agents/agent_a"))).isTrue();

    assertThat(StreamRequests.mayStream(request("GET", "/v1/threads"))).isFalse();
    assertThat(StreamRequests.mayStream(request("POST", "/v1/threads/thread_a/cancel"))).isFalse();
    assertThat(StreamRequests.mayStream(request("GET", "/.well-known/agent-card.json"))).isFalse();
    assertThat(
            StreamRequests.mayStream(
                request("GET", "/a2a/agents/agent_a/.well-known/agent-card.json")))
        .isFalse();
  }

  private static HttpServletRequest request(String method, String path) {
    return (HttpServletRequest)
        Proxy.newProxyInstance(
            StreamRequestsTest.class.getClassLoader(),
            new Class<?>[] {HttpServletRequest.class},
            (proxy, called, args) ->
                switch (called.getName()) {
                  case "getMethod" -> method;
                  case "getRequestURI" -> path;
                  case "getContextPath" -> "";
                  default -> throw new UnsupportedOperationException(called.getName());
                });
  }
}
