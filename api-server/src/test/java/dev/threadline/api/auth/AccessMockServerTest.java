package dev.threadline.api.auth;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.RunningApiServer;
import dev.threadline.api.ThreadlineApiServer;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.Environment;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scopes (403), keys bound to a deployment environment, rotation, and the per-key rate limit (429).
 */
class AccessMockServerTest {
  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void server() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void aReadOnlyKeyReadsEverythingAndWritesNothing() {
    TestUser user = shared.newUser("reader");
    String key = shared.addKey(user.userId(), ApiKeys.newKey(), Map.of(ApiKeys.SCOPES, "read"));
    await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/v1/threads", key).status() == 200);

    assertThat(api.get("/v1/schedules", key).status()).isEqualTo(200);
    assertThat(api.get("/environments", key).status()).isEqualTo(200);
    assertThat(api.get("/v1/agents", key).status()).isEqualTo(200);
    assertThat(api.get("/v1/usage", key).status()).isEqualTo(200);
    assertError(
        api.post("/v1/threads", key, "{}"),
        403,
        "Forbidden",
        "this API key lacks the threads scope");
    assertError(
        api.post("/v1/schedules", key, "{}"),
        403,
        "Forbidden",
        "this API key lacks the schedules scope");
    assertError(
        api.post("/environments", key, "{}"),
        403,
        "Forbidden",
        "this API key lacks the environments scope");
    assertError(
        api.post("/v1/agents", key, "{}"), 403, "Forbidden", "this API key lacks the agents scope");

    assertError(
        api.get("/environments/default", key),
        404,
        "Not Found",
        "No default environment yet; a key that may write environments creates it on first use");
    assertThat(
            shared
                .client()
                .resources(Environment.class)
                .inNamespace(user.namespace())
                .list()
                .getItems())
        .as("a read-only key wrote nothing")
        .isEmpty();
    String writer =
        shared.addKey(user.userId(), ApiKeys.newKey(), Map.of(ApiKeys.SCOPES, "environments"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/environments/default", writer).status() == 200);
    assertThat(api.get("/environments/default", key).text("message")).isNull();
  }

  @Test
  void aResourceScopeAllowsItsResourceOnly() {
    TestUser user = shared.newUser("threads-only");
    String key = shared.addKey(user.userId(), ApiKeys.newKey(), Map.of(ApiKeys.SCOPES, "threads"));
    await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/v1/threads", key).status() == 200);

    assertThat(api.post("/v1/threads", key, "{\"title\":\"mine\"}").status()).isEqualTo(201);
    assertError(
        api.get("/v1/schedules", key), 403, "Forbidden", "this API key lacks the schedules scope");
    assertError(
        api.get("/environments", key),
        403,
        "Forbidden",
        "this API key lacks the environments scope");
    assertError(api.get("/v1/usage", key), 403, "Forbidden", "this API key lacks the read scope");
    assertError(
        api.get("/api/v1/containers", key),
        403,
        "Forbidden",
        "this API key lacks the containers scope");
    // Endpoints without a scope of their own (anything new) need admin.
    assertError(
        api.get("/api/v1/not-yet-scoped", key),
        403,
        "Forbidden",
        "this API key lacks the admin scope");
  }

  @Test
  void anAdminKeyAndAKeyWithoutScopesMayDoEverything() {
    TestUser user = shared.newUser("admin");
    String admin = shared.addKey(user.userId(), ApiKeys.newKey(), Map.of(ApiKeys.SCOPES, "admin"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/v1/threads", admin).status() == 200);
    assertThat(api.post("/v1/schedules", admin, "{}").status()).isEqualTo(400);
    assertThat(api.post("/v1/schedules", user.key(), "{}").status()).isEqualTo(400);
  }

  @Test
  void aKeyOfAnotherEnvironmentIs401WhereTheDeploymentNamesOne() {
    TestUser user = shared.newUser("envs");
    String devKey = shared.addKey(user.userId(), ApiKeys.newKey("dev"), Map.of());
    String prodKey = shared.addKey(user.userId(), ApiKeys.newKey("prod"), Map.of());
    assertThat(devKey).startsWith("tl_dev_");
    api.awaitAccepted(devKey); // no environment configured: every key is accepted
    api.awaitAccepted(prodKey);

    System.setProperty("threadline.deployment.env", "prod");
    RunningApiServer prod;
    try {
      prod =
          ThreadlineApiServer.start(
              shared.client(), ApiServerSettings.loopback(SharedApiServer.SYSTEM_NAMESPACE));
    } finally {
      System.clearProperty("threadline.deployment.env");
    }
    try (prod) {
      ApiClient prodApi = new ApiClient(prod.baseUrl());
      prodApi.awaitAccepted(prodKey);
      assertThat(prodApi.get("/v1/threads", user.key()).status())
          .isEqualTo(200); // names no environment
      ApiClient.Response refused = prodApi.get("/v1/threads", devKey);
      assertError(
          refused, 401, "Unauthorized", "This API key is for the dev environment; this is prod");
      assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer");
    }
  }

  @Test
  void rotationKeepsBothKeysValidUntilTheOldOneExpires() {
    TestUser user = shared.newUser("rotating");
    String newKey = shared.addKey(user.userId(), null);
    api.awaitAccepted(newKey);
    assertThat(api.get("/v1/threads", user.key()).status()).isEqualTo(200);
    assertThat(api.get("/v1/threads", newKey).status()).isEqualTo(200);

    String oldSecret = "api-key-" + Sha256.hex(user.key()).substring(0, 16);
    shared
        .client()
        .secrets()
        .inNamespace(SharedApiServer.SYSTEM_NAMESPACE)
        .withName(oldSecret)
        .edit(secret -> {
          secret
              .getData()
              .put(
                  ApiKeys.EXPIRES_AT,
                  Base64.getEncoder()
                      .encodeToString(Timestamps.format(Instant.now().minusSeconds(1)).getBytes()));
          return secret;
        });
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/v1/threads", user.key()).status() == 401);
    assertThat(api.get("/v1/threads", newKey).status()).isEqualTo(200);
  }

  @Test
  void aKeyBeyondItsBurstIs429WithRetryAfterAndTheHealthProbesAreExempt() {
    TestUser user = shared.newUser("hasty");
    String key = shared.addKey(user.userId(), ApiKeys.newKey(), Map.of(ApiKeys.RATE_LIMIT, "3/6"));
    await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/v1/threads", key).status() == 200);

    ApiClient.Response last = null;
    for (int i = 0; i < 3; i++) {
      last = api.get("/v1/threads", key);
      if (last.status() == 429) {
        break;
      }
      assertThat(last.header("RateLimit-Limit")).isEqualTo("3");
    }
    ApiClient.Response limited = last.status() == 429 ? last : api.get("/v1/threads", key);

    assertThat(limited.status()).isEqualTo(429);
    assertThat(limited.body())
        .startsWith("{\"error\":\"Too Many Requests\",\"message\":\"Rate limit of 3 requests")
        .endsWith(",\"code\":\"rate_limited\"}");
    assertThat(Long.parseLong(limited.header("Retry-After"))).isBetween(1L, 10L);
    assertThat(limited.header("RateLimit-Remaining")).isEqualTo("0");
    assertThat(Long.parseLong(limited.header("RateLimit-Reset"))).isBetween(1L, 30L);
    // Other keys have their own buckets; the probes have none.
    assertThat(api.get("/v1/threads", user.key()).status()).isEqualTo(200);
    for (int i = 0; i < 5; i++) {
      assertThat(api.getWithAuthorization("/health/live", null).status()).isEqualTo(200);
    }
  }
}
