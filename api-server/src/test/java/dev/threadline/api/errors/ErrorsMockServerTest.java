package dev.threadline.api.errors;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every way a request can be wrong answers with the contract's error body over real HTTP. */
class ErrorsMockServerTest {
  private static ApiClient api;
  private static TestUser dave;

  @BeforeAll
  static void startServer() {
    SharedApiServer shared = SharedApiServer.get();
    api = shared.api();
    dave = shared.newUser("dave");
  }

  @Test
  void malformedJsonIs400() {
    ApiClient.Response response = api.post("/v1/agents", dave.key(), "{\"name\": \"x\",");

    assertError(response, 400, "Bad Request", response.text("message"));
    assertThat(response.text("message")).startsWith("Malformed JSON body: ");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"name\": [\"x\"], \"model\": \"m\"}  | name must be a string",
        "{\"name\": 5, \"model\": \"m\"}        | name must be a string",
        "{\"name\": \"x\", \"model\": {}}       | model must be a string",
        "[1, 2]                                 | Request body must be an object"
      })
  void wrongJsonTypeIs400NamingTheField(String body, String message) {
    assertError(api.post("/v1/agents", dave.key(), body), 400, "Bad Request", message);
  }

  @Test
  void aNullBodyIs400NamingTheBodyAndCreatesNothing() {
    for (String path : new String[] {"/v1/threads", "/v1/agents", "/v1/schedules"}) {
      assertError(
          api.post(path, dave.key(), "null"),
          400,
          "Bad Request",
          "Request body must be an object, not null");
    }
    assertThat(api.get("/v1/threads", dave.key()).json().get("total_count").asInt()).isZero();
  }

  @Test
  void missingBodyIs400() {
    assertError(
        api.post("/v1/agents", dave.key(), ""), 400, "Bad Request", "Request body is required");
  }

  @Test
  void unknownFieldsAreIgnored() {
    ApiClient.Response response =
        api.post(
            "/v1/agents", dave.key(), "{\"name\": \"x\", \"model\": \"m\", \"colour\": \"blue\"}");

    assertThat(response.status()).isEqualTo(201);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "limit=0     | limit must be between 1 and 100",
        "limit=101   | limit must be between 1 and 100",
        "limit=abc   | limit must be a number",
        "limit=2.5   | limit must be a whole number",
        "offset=-1   | offset must be 0 or greater",
        "offset=x    | offset must be a number"
      })
  void badPagingParameterIs400NamingIt(String query, String message) {
    assertError(api.get("/v1/agents?" + query, dave.key()), 400, "Bad Request", message);
  }

  /** Tomcat refuses to decode these; the refusal is the client's mistake, not a server error. */
  @ParameterizedTest
  @CsvSource({
    "/v1/agents?colour=%ff",
    "/v1/agents?limit=%c0%ae",
    "/v1/agents?%",
    "/v1/threads?limit=5&x=%",
    "/environments?isActive=%ff",
    "/api/v1/containers?%c0%ae=1",
    "/v1/schedules?q=%e2%82"
  })
  void undecodableQueryIs400(String target) {
    assertError(
        api.raw("GET", target, dave.key(), null, null),
        400,
        "Bad Request",
        "The query string could not be decoded; percent-encode it as UTF-8");
  }

  @Test
  void unknownRouteIs404() {
    assertError(
        api.get("/v1/nothing-here", dave.key()),
        404,
        "Not Found",
        "No route for GET /v1/nothing-here");
  }

  @Test
  void springBootsErrorPageIsReplacedByOurs() {
    assertError(api.get("/error", dave.key()), 404, "Not Found", "No route for GET /error");
  }

  @Test
  void wrongMethodIs405WithAllow() {
    ApiClient.Response response =
        api.send("PUT", "/v1/agents", dave.key(), "{}", "application/json");

    assertError(response, 405, "Method Not Allowed", "Method PUT is not allowed on this path");
    assertThat(response.header("Allow")).contains("GET").contains("POST");
  }

  @Test
  void wrongContentTypeIs415() {
    ApiClient.Response response =
        api.send("POST", "/v1/agents", dave.key(), "name=x", "text/plain");

    assertError(
        response,
        415,
        "Unsupported Media Type",
        "Content-Type text/plain is not supported; use application/json");
  }

  @Test
  void errorsAreJsonEvenWhenTheClientAcceptsOnlyHtml() {
    assertError(
        api.getAccepting("/v1/nothing-here", dave.key(), "text/html"),
        404,
        "Not Found",
        "No route for GET /v1/nothing-here");
    assertError(
        api.getAccepting("/v1/agents", dave.key(), "text/html"),
        406,
        "Not Acceptable",
        "This endpoint produces application/json");
  }
}
