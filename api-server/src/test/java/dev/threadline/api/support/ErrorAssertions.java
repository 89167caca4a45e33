package dev.threadline.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/** The contract's error body, checked exactly: status, JSON, and only {error, message}. */
public final class ErrorAssertions {
  private ErrorAssertions() {}

  public static void assertError(
      ApiClient.Response response, int status, String error, String message) {
    assertErrorShape(response, status, error);
    assertThat(response.text("message")).isEqualTo(message);
  }

  /** For messages with a variable part (a generated reference): checks all but the message text. */
  public static void assertErrorShape(ApiClient.Response response, int status, String error) {
    assertThat(response.status()).as("status of %s", response.body()).isEqualTo(status);
    assertThat(response.header("Content-Type")).startsWith("application/json");
    assertThat(response.json()).as("JSON body").isNotNull();
    List<String> fields = new ArrayList<>();
    response.json().propertyNames().forEach(fields::add);
    assertThat(fields).containsExactlyInAnyOrder("error", "message");
    assertThat(response.text("error")).isEqualTo(error);
  }
}
