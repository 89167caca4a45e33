package dev.threadline.api.console;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The console's files are served without a key, with their security headers; nothing else is. */
class ConsoleMockServerTest {
  private static ApiClient api;

  @BeforeAll
  static void startServer() {
    api = SharedApiServer.get().api();
  }

  @Test
  void thePageAndItsScriptsNeedNoKeyAndCarryAStrictContentSecurityPolicy() {
    ApiClient.Response page = api.getAccepting("/console/", null, "text/html");

    assertThat(page.status()).as(page.body()).isEqualTo(200);
    assertThat(page.header("Content-Type")).startsWith("text/html");
    assertThat(page.body()).contains("<script type=\"module\" src=\"/console/js/main.js\">");
    assertThat(page.header("Content-Security-Policy"))
        .contains("script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'");
    assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");

    ApiClient.Response script = api.get("/console/js/main.js", null);
    assertThat(script.status()).isEqualTo(200);
    assertThat(script.header("Content-Type")).startsWith("text/javascript");

    assertThat(api.get("/console", null).status()).as("redirected to /console/").isEqualTo(302);
  }

  @Test
  void onlyReadsOfTheConsolesOwnPathsGoWithoutAKey() {
    assertError(
        api.send("POST", "/console/index.html", null, "{}", "application/json"),
        401,
        "Unauthorized",
        "Missing or invalid API key");
    assertError(
        api.get("/console/../v1/threads", null), 401, "Unauthorized", "Missing or invalid API key");
    assertThat(api.get("/console/missing.js", null).status()).isEqualTo(404);
  }
}
