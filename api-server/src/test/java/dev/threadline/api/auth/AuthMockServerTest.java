package dev.threadline.api.auth;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AuthMockServerTest {
  private static final String INVALID_KEY = "Missing or invalid API key";

  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void missingHeaderIs401WithBearerChallenge() {
    ApiClient.Response response = api.getWithAuthorization("/v1/agents", null);

    assertError(response, 401, "Unauthorized", INVALID_KEY);
    assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
  }

  @Test
  void wrongSchemeIs401() {
    TestUser alice = shared.newUser("alice");

    ApiClient.Response response = api.getWithAuthorization("/v1/agents", "Basic " + alice.key());

    assertError(response, 401, "Unauthorized", INVALID_KEY);
    assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
  }

  @Test
  void unknownKeyIs401() {
    ApiClient.Response response = api.get("/v1/agents", ApiKeys.newKey());

    assertError(response, 401, "Unauthorized", INVALID_KEY);
  }

  @Test
  void unknownRouteWithoutKeyIs401NotARouteListing() {
    ApiClient.Response response = api.get("/v1/nothing-here", null);

    assertError(response, 401, "Unauthorized", INVALID_KEY);
  }

  @Test
  void expiredKeyIs401WhileAFreshKeyOfTheSameUserWorks() {
    TestUser carol = shared.newUser("carol");
    String expired = shared.addKey(carol.userId(), Instant.now().minusSeconds(60));
    String fresh = shared.addKey(carol.userId(), Instant.now().plusSeconds(3600));
    // The informer applies events in order: once the later key works, the expired one is cached
    // too.
    api.awaitAccepted(fresh);

    assertError(api.get("/v1/agents", expired), 401, "Unauthorized", INVALID_KEY);
    assertThat(api.get("/v1/agents", fresh).status()).isEqualTo(200);
  }

  @Test
  void keyOfAUserWithoutTenantNamespaceIs403() {
    String userId = SharedApiServer.unique("nobody");
    String key = shared.addKey(userId, null);

    await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/v1/agents", key).status() != 401);
    assertError(
        api.get("/v1/agents", key),
        403,
        "Forbidden",
        "User " + userId + " has no tenant namespace; an operator must create one");
  }

  @Test
  void healthNeedsNoKey() {
    ApiClient.Response readiness = api.get("/health", null);
    ApiClient.Response liveness = api.get("/health/live", null);

    assertThat(readiness.status()).isEqualTo(200);
    assertThat(readiness.text("status")).isEqualTo("ok");
    assertThat(readiness.json().get("checks").get("kubernetes").asString()).isEqualTo("up");
    assertThat(readiness.json().get("checks").get("informers").asString()).isEqualTo("synced");
    assertThat(liveness.status()).isEqualTo(200);
    assertThat(liveness.body()).isEqualTo("{\"status\":\"ok\"}");
  }
}
