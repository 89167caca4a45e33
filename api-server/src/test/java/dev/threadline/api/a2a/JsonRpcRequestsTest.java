package dev.threadline.api.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import io.a2a.spec.CancelTaskRequest;
import io.a2a.spec.GetTaskRequest;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.TaskResubscriptionRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** JSON-RPC bodies read with the A2A SDK's types, and the error each bad one gets. */
class JsonRpcRequestsTest {
  @Test
  void theFiveMethodsReadAsTheirRequestsAndTheStreamingOnesSaySo() {
    String message =
        "{\"message\":{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"user\","
            + "\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}}";

    assertThat(valid("message/send", message)).isInstanceOf(SendMessageRequest.class);
    assertThat(valid("tasks/get", "{\"id\":\"run_a-1\"}")).isInstanceOf(GetTaskRequest.class);
    assertThat(valid("tasks/cancel", "{\"id\":\"run_a-1\"}")).isInstanceOf(CancelTaskRequest.class);
    JsonRpcRequests.Valid stream = parseValid("message/stream", message);
    assertThat(stream.request()).isInstanceOf(SendStreamingMessageRequest.class);
    assertThat(stream.streaming()).isTrue();
    JsonRpcRequests.Valid resubscribe = parseValid("tasks/resubscribe", "{\"id\":\"run_a-1\"}");
    assertThat(resubscribe.request()).isInstanceOf(TaskResubscriptionRequest.class);
    assertThat(resubscribe.streaming()).isTrue();
    assertThat(parseValid("tasks/get", "{\"id\":\"run_a-1\"}").streaming()).isFalse();
  }

  @Test
  void eachKindOfBadBodyHasItsCodeAndKeepsTheIdWhenThereIsOne() {
    assertInvalid("", -32700, null);
    assertInvalid("{\"jsonrpc\":", -32700, null);
    assertInvalid("[{\"jsonrpc\":\"2.0\"}]", -32600, null);
    assertInvalid("\"text\"", -32600, null);
    assertInvalid("{\"jsonrpc\":\"2.0\",\"id\":\"a\"}", -32600, "a");
    assertInvalid("{\"id\":7,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}", -32600, 7);
    assertInvalid("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tasks/list\"}", -32601, 7);
    assertInvalid(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"message/send\",\"params\":{\"message\":7}}",
        -32602,
        7);
    assertInvalid(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"message/stream\",\"params\":{}}", -32602, 7);
  }

  @Test
  void anErrorNeverQuotesTheSdksClassNames() {
    JsonRpcRequests.Invalid invalid =
        (JsonRpcRequests.Invalid)
            JsonRpcRequests.parse(
                bytes(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\","
                        + "\"params\":{\"message\":{\"role\":\"user\"}}}"));

    assertThat(invalid.error().getCode()).isEqualTo(-32602);
    assertThat(invalid.error().getMessage()).doesNotContain("io.a2a").doesNotContain("`");
  }

  private static Object valid(String method, String params) {
    return parseValid(method, params).request();
  }

  private static JsonRpcRequests.Valid parseValid(String method, String params) {
    JsonRpcRequests.Parsed parsed =
        JsonRpcRequests.parse(
            bytes(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\""
                    + method
                    + "\",\"params\":"
                    + params
                    + "}"));
    assertThat(parsed).isInstanceOf(JsonRpcRequests.Valid.class);
    return (JsonRpcRequests.Valid) parsed;
  }

  private static void assertInvalid(String body, int code, Object id) {
    JsonRpcRequests.Parsed parsed = JsonRpcRequests.parse(bytes(body));
    assertThat(parsed).as(body).isInstanceOf(JsonRpcRequests.Invalid.class);
    JsonRpcRequests.Invalid invalid = (JsonRpcRequests.Invalid) parsed;
    assertThat(invalid.error().getCode()).as(body).isEqualTo(code);
    assertThat(invalid.id()).as(body).isEqualTo(id);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
