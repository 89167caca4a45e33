package dev.threadline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelTypesTest {

  @Test
  void toolCallArgumentsRoundTripThroughJson() {
    ToolCall call =
        ToolCall.of("call_1", "run_command", Map.of("command", "ls -la", "timeout", 30));

    assertThat(call.arguments()).isEqualTo(Map.of("command", "ls -la", "timeout", 30));
    assertThat(new ToolCall("c", "t", null).arguments()).isEmpty();
  }

  @Test
  void malformedToolArgumentsFailReadably() {
    ToolCall call = new ToolCall("call_1", "run_command", "{\"command\": ");

    assertThatThrownBy(call::arguments)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("call_1")
        .hasMessageContaining("not a JSON object");
    assertThatThrownBy(new ToolCall("c", "t", "[1,2]")::arguments)
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void messagesKeepTheirShape() {
    assertThat(ChatMessage.user(null).content()).isEmpty();
    assertThat(ChatMessage.toolResult("call_1", "ok").role()).isEqualTo(Role.TOOL);
    assertThatThrownBy(() -> new ChatMessage(Role.TOOL, "ok", null, null))
        .hasMessageContaining("id of the tool call");
    assertThatThrownBy(
            () -> new ChatMessage(Role.USER, "x", List.of(new ToolCall("c", "t", "{}")), null))
        .hasMessageContaining("only assistant");
    assertThatThrownBy(() -> ModelRequest.of("m", null, List.of()))
        .hasMessageContaining("at least one message");
  }

  @Test
  void usageAddsUpAndKeepsCachedInsideInput() {
    Usage total = new Usage(100, 20, 40).plus(new Usage(50, 5, 0));

    assertThat(total).isEqualTo(new Usage(150, 25, 40));
    assertThat(total.totalTokens()).isEqualTo(175);
    assertThat(total.uncachedInputTokens()).isEqualTo(110);
    assertThat(Usage.ZERO.plus(Usage.ZERO)).isEqualTo(Usage.ZERO);
    assertThatThrownBy(() -> new Usage(1, 0, 2)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource({
    "401, auth",
    "403, auth",
    "429, rate_limited",
    "408, timeout",
    "400, bad_request",
    "422, bad_request",
    "500, unavailable",
    "502, unavailable",
    "529, unavailable"
  })
  void httpStatusesMapToCodes(int status, String code) {
    assertThat(ModelErrorCode.forHttpStatus(status).code()).isEqualTo(code);
  }

  @Test
  void transportFailuresAreTimeoutsOrUnavailable() {
    assertThat(
            ModelErrorCode.forTransportFailure(
                new UncheckedIOException(new SocketTimeoutException("read"))))
        .isEqualTo(ModelErrorCode.TIMEOUT);
    assertThat(ModelErrorCode.forTransportFailure(new IOException(new ConnectException("refused"))))
        .isEqualTo(ModelErrorCode.UNAVAILABLE);
  }

  @Test
  void redactionMasksTheSecretAndShortensLongBodies() {
    assertThat(Redaction.redact("bad key sk-123 (sk-123)", "sk-123"))
        .isEqualTo("bad key **** (****)");
    assertThat(Redaction.redact("x".repeat(1000), "k")).hasSize(300);
    assertThat(Redaction.redact(null, "k")).isEmpty();
    assertThat(Redaction.url("https://user:pw@gateway.local/v1"))
        .isEqualTo("https://****@gateway.local/v1");
    assertThat(Redaction.url("http://127.0.0.1:8080/v1")).isEqualTo("http://127.0.0.1:8080/v1");
  }
}
