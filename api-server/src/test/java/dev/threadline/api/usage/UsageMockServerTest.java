package dev.threadline.api.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.RunningApiServer;
import dev.threadline.api.ThreadlineApiServer;
import dev.threadline.api.support.Allowances;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.crds.thread.ConversationThread;
import java.time.Clock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The monthly allowance seen from the API: executions are refused with the contract's exact 402
 * once the ledger the operator keeps reaches the allowance, nothing is left behind, and {@code GET
 * /v1/usage} reports the month — also from another API server (a restart or another replica reads
 * the same ledger).
 */
class UsageMockServerTest {
  private static final String EXHAUSTED = Allowances.EXHAUSTED;
  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void server() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void newThreadWithMessagesIs402WithTheExactBodyAndLeavesNoThread() {
    TestUser user = spentUser();

    ApiClient.Response refused =
        api.post(
            "/v1/threads", user.key(), "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

    assertThat(refused.status()).isEqualTo(402);
    assertThat(refused.body()).isEqualTo(EXHAUSTED);
    assertThat(
            shared
                .client()
                .resources(ConversationThread.class)
                .inNamespace(user.namespace())
                .list()
                .getItems())
        .isEmpty();
    // A thread without messages executes nothing: still allowed.
    assertThat(api.post("/v1/threads", user.key(), "{\"title\":\"later\"}").status())
        .isEqualTo(201);
  }

  @Test
  void followUpMessageIs402WithTheExactBody() {
    TestUser user = SharedApiServer.get().newUser("spent-followup");
    String threadId =
        api.post("/v1/threads", user.key(), "{\"title\":\"t\"}")
            .json()
            .path("thread")
            .path("id")
            .asString();
    spend(user);

    ApiClient.Response refused =
        api.post("/v1/threads/" + threadId + "/messages", user.key(), "{\"content\":\"go on\"}");

    assertThat(refused.status()).isEqualTo(402);
    assertThat(refused.body()).isEqualTo(EXHAUSTED);
  }

  @Test
  void usageReportsTheMonthAndSurvivesAnotherApiServer() {
    TestUser user = spentUser();
    UsagePeriod period = UsagePeriod.of(Clock.systemUTC().instant());

    ApiClient.Response usage = api.get("/v1/usage", user.key());

    assertThat(usage.status()).isEqualTo(200);
    assertThat(usage.text("userId")).isEqualTo(user.userId());
    assertThat(usage.text("tier")).isEqualTo("pro");
    assertThat(usage.json().path("period").path("start").asString())
        .isEqualTo(period.start().toString());
    assertThat(usage.json().path("period").path("end").asString())
        .isEqualTo(period.end().toString());
    assertThat(usage.json().path("allowance").asDouble()).isEqualTo(0.5);
    assertThat(usage.json().path("used").asDouble()).isEqualTo(0.5);
    assertThat(usage.json().path("remaining").asDouble()).isZero();
    assertThat(usage.json().path("inputTokens").asLong()).isEqualTo(1000);
    assertThat(usage.json().path("outputTokens").asLong()).isEqualTo(200);
    assertThat(usage.json().path("cachedTokens").asLong()).isEqualTo(10);
    assertThat(usage.json().path("runs").asLong()).isEqualTo(3);

    try (RunningApiServer restarted =
        ThreadlineApiServer.start(
            shared.client(), ApiServerSettings.loopback(SharedApiServer.SYSTEM_NAMESPACE))) {
      ApiClient other = new ApiClient(restarted.baseUrl());
      other.awaitAccepted(user.key());
      assertThat(other.get("/v1/usage", user.key()).body()).isEqualTo(usage.body());
      assertThat(other.post("/v1/threads", user.key(), "{\"task\":\"hello\"}").body())
          .isEqualTo(EXHAUSTED);
    }
  }

  @Test
  void aUserWithinTheAllowanceSeesWhatRemains() {
    TestUser user = SharedApiServer.get().newUser("fresh");
    ApiClient.Response usage = api.get("/v1/usage", user.key());
    assertThat(usage.text("tier")).isEqualTo(UsagePlans.DEFAULT_TIER);
    assertThat(usage.json().path("used").asDouble()).isZero();
    assertThat(usage.json().path("remaining").asDouble())
        .isEqualTo(usage.json().path("allowance").asDouble())
        .isPositive();
  }

  /** A pro user whose allowance is lowered to USD 0.50, all of it spent this month. */
  private static TestUser spentUser() {
    TestUser user = SharedApiServer.get().newUser("spent");
    spend(user);
    return user;
  }

  private static void spend(TestUser user) {
    Allowances.spend(shared, user);
  }
}
