package dev.threadline.api.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.NoHandlerFoundException;
import tools.jackson.databind.json.JsonMapper;

class ExceptionMapperTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String REFERENCE_MESSAGE =
      "An internal error occurred \\(reference"
          + " [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\)";

  private static final HttpInputMessage EMPTY_INPUT =
      new HttpInputMessage() {
        @Override
        public InputStream getBody() {
          return new ByteArrayInputStream(new byte[0]);
        }

        @Override
        public HttpHeaders getHeaders() {
          return new HttpHeaders();
        }
      };

  private final ExceptionMapper mapper = new ExceptionMapper();

  record Body(
      String name,
      Map<String, String> metadata,
      List<Item> items,
      Integer limit,
      Boolean enabled) {}

  record Item(String label) {}

  @Test
  void apiExceptionKeepsStatusMessageAndHeaders() {
    MappedError error = mapper.map(ApiException.unauthorized(), "GET /x");

    assertThat(error.status()).isEqualTo(401);
    assertThat(error.body())
        .isEqualTo(new ErrorBody("Unauthorized", "Missing or invalid API key", null));
    assertThat(error.headers()).containsEntry("WWW-Authenticate", "Bearer");
  }

  @Test
  void factoriesUseTheContractsErrorStrings() {
    assertThat(ApiException.badRequest("name", "is required").body())
        .isEqualTo(new ErrorBody("Bad Request", "name is required", null));
    assertThat(ApiException.notFound("Agent agent_1").body())
        .isEqualTo(new ErrorBody("Not Found", "Agent agent_1 not found", null));
    assertThat(ApiException.forbidden("no").kind().error()).isEqualTo("Forbidden");
    assertThat(ApiException.conflict("busy").kind().status()).isEqualTo(409);
    assertThat(ApiException.gone("old").kind().error()).isEqualTo("Gone");
    assertThat(ApiException.unprocessable("x").kind().error()).isEqualTo("Unprocessable Entity");
    assertThat(ApiException.tooManyRequests("x").kind().error()).isEqualTo("Too Many Requests");
  }

  @Test
  void paymentRequiredCarriesUsage() {
    MappedError error =
        mapper.map(
            ApiException.usageExhausted(new Usage("free", BigDecimal.TEN, BigDecimal.TEN)),
            "POST /v1/threads");

    assertThat(error.status()).isEqualTo(402);
    assertThat(error.body())
        .isEqualTo(
            new ErrorBody(
                "Payment Required",
                "monthly usage allowance exhausted",
                new Usage("free", BigDecimal.TEN, BigDecimal.TEN)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"metadata\": []}                      | metadata must be an object",
        "{\"metadata\": {\"a\": {}}}             | metadata.a must be a string",
        "{\"items\": {}}                         | items must be an array",
        "{\"items\": [{\"label\": []}]}          | items[0].label must be a string",
        "{\"limit\": \"abc\"}                    | limit must be a number",
        "{\"limit\": {}}                         | limit must be a number",
        "{\"enabled\": []}                       | enabled must be a boolean",
        "{\"name\": {}}                          | name must be a string",
        "[]                                      | Request body must be an object"
      })
  void wrongJsonTypeNamesTheFieldPath(String json, String message) {
    MappedError error = mapper.map(unreadable(json), "POST /x");

    assertThat(error.body()).isEqualTo(new ErrorBody("Bad Request", message, null));
  }

  @Test
  void malformedJsonSaysSoWithoutLocationDetails() {
    MappedError error = mapper.map(unreadable("{\"name\": "), "POST /x");

    assertThat(error.status()).isEqualTo(400);
    assertThat(error.body().message()).startsWith("Malformed JSON body: ").doesNotContain("Source");
  }

  @Test
  void queryParameterProblemsNameTheParameter() throws Exception {
    MethodParameter parameter =
        new MethodParameter(
            ExceptionMapperTest.class.getDeclaredMethod("handler", boolean.class), 0);
    MappedError mismatch =
        mapper.map(
            new MethodArgumentTypeMismatchException(
                "yes", Boolean.class, "enabled", parameter, null),
            "GET /x");
    MappedError missing =
        mapper.map(new MissingServletRequestParameterException("hard", "boolean"), "GET /x");

    assertThat(mismatch.body())
        .isEqualTo(new ErrorBody("Bad Request", "enabled must be a boolean", null));
    assertThat(missing.body()).isEqualTo(new ErrorBody("Bad Request", "hard is required", null));
  }

  @Test
  void routingProblemsAre404405And415() {
    MappedError noRoute =
        mapper.map(new NoHandlerFoundException("GET", "/v1/x", new HttpHeaders()), "GET /v1/x");
    MappedError method =
        mapper.map(new HttpRequestMethodNotSupportedException("PUT", Set.of("GET")), "PUT /v1/x");
    MappedError media =
        mapper.map(
            new HttpMediaTypeNotSupportedException(
                MediaType.TEXT_PLAIN, List.of(MediaType.APPLICATION_JSON)),
            "POST /v1/x");

    assertThat(noRoute.body())
        .isEqualTo(new ErrorBody("Not Found", "No route for GET /v1/x", null));
    assertThat(method.body())
        .isEqualTo(
            new ErrorBody("Method Not Allowed", "Method PUT is not allowed on this path", null));
    assertThat(method.headers()).containsEntry("Allow", "GET");
    assertThat(media.body())
        .isEqualTo(
            new ErrorBody(
                "Unsupported Media Type",
                "Content-Type text/plain is not supported; use application/json",
                null));
  }

  @Test
  void kubernetesStatusesMapToWhatTheClientCanActOn() {
    assertThat(mapper.map(kubernetes(404, "agents \"x\" not found"), "GET /x").status())
        .isEqualTo(404);
    assertThat(mapper.map(kubernetes(409, "conflict"), "PATCH /x").body())
        .isEqualTo(
            new ErrorBody(
                "Conflict",
                "The resource was changed concurrently or already exists; retry the request",
                null));
    KubernetesClientException invalid =
        new KubernetesClientException(
            new StatusBuilder()
                .withCode(422)
                .withMessage("Agent is invalid")
                .withNewDetails()
                .addNewCause()
                .withField("spec.model")
                .withMessage("Required value")
                .endCause()
                .endDetails()
                .build());
    assertThat(mapper.map(invalid, "POST /x").body())
        .isEqualTo(
            new ErrorBody("Bad Request", "Invalid request: spec.model: Required value", null));
  }

  @ParameterizedTest
  @CsvSource({
    "403, 503, secrets is forbidden: serviceaccount api",
    "413, 413, etcdserver: request is too large",
    "400, 400, the body of the request was in an unknown format (serviceaccount api)",
    "500, 503, etcdserver: leader changed",
    "410, 503, too old resource version (serviceaccount api)",
    "0, 503, connect timed out (serviceaccount api)"
  })
  void otherKubernetesRefusalsSayWhatHappenedWithoutInternals(
      int code, int status, String clusterMessage) {
    MappedError error = mapper.map(kubernetes(code, clusterMessage), "POST /x");

    assertThat(error.status()).isEqualTo(status);
    assertThat(error.body().message())
        .doesNotContain("serviceaccount")
        .doesNotContain("etcd")
        .doesNotContain("reference");
  }

  @Test
  void unexpectedExceptionsAre500WithAFreshReferenceOnly() {
    MappedError first = mapper.map(new IllegalStateException("password=hunter2"), "GET /x");
    MappedError second = mapper.map(new NullPointerException(), "GET /x");

    assertThat(first.status()).isEqualTo(500);
    assertThat(first.body().message()).matches(REFERENCE_MESSAGE).doesNotContain("hunter2");
    assertThat(first.body().usage()).isNull();
    assertThat(second.body().message())
        .matches(REFERENCE_MESSAGE)
        .isNotEqualTo(first.body().message());
  }

  @Test
  void unknownStatusesFallBackToTheNearestGeneralKind() {
    assertThat(ErrorKind.ofStatus(418)).isEqualTo(ErrorKind.BAD_REQUEST);
    assertThat(ErrorKind.ofStatus(502)).isEqualTo(ErrorKind.INTERNAL_SERVER_ERROR);
    assertThat(ErrorKind.ofStatus(429).error()).isEqualTo("Too Many Requests");
  }

  @SuppressWarnings("unused")
  private void handler(boolean enabled) {}

  private static HttpMessageNotReadableException unreadable(String json) {
    Throwable jackson = catchThrowable(() -> JSON.readValue(json, Body.class));
    assertThat(jackson).as("Jackson rejects %s", json).isNotNull();
    return new HttpMessageNotReadableException("JSON parse error", jackson, EMPTY_INPUT);
  }

  private static KubernetesClientException kubernetes(int code, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withMessage(message).build());
  }
}
