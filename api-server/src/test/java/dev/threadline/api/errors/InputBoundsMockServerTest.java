package dev.threadline.api.errors;

import static dev.threadline.api.support.ErrorAssertions.assertError;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every stored field has a bound that is checked here, before the value reaches the Kubernetes API
 * (which refuses objects over about 1.5 MiB with an error the client could not act on).
 */
class InputBoundsMockServerTest {
  private static final String TWO_MB = "x".repeat(2_000_000);

  private static ApiClient api;
  private static TestUser user;

  @BeforeAll
  static void startServer() {
    SharedApiServer shared = SharedApiServer.get();
    api = shared.api();
    user = shared.newUser("bounds");
  }

  @Test
  void hugeScheduleMetadataIs400NamingIt() {
    assertError(
        api.post(
            "/v1/schedules",
            user.key(),
            "{\"name\": \"n\", \"task\": \"t\", \"scheduleType\": \"recurring\","
                + " \"cronExpression\": \"0 9 * * *\", \"metadata\": {\"blob\": \""
                + TWO_MB
                + "\"}}"),
        400,
        "Bad Request",
        "metadata must be at most 16384 bytes as JSON");
  }

  @Test
  void hugeMcpArgumentIs400NamingItOnEnvironmentsAndContainers() {
    String server =
        "{\"mcpServers\": [{\"type\": \"stdio\", \"name\": \"m\", \"command\": \"npx\","
            + " \"args\": [\"ok\", \""
            + TWO_MB
            + "\"]}]";
    String message = "mcpServers[0].args[1] may have at most 4096 characters";
    assertError(
        api.post("/environments", user.key(), server + ", \"name\": \"big\"}"),
        400,
        "Bad Request",
        message);
    assertError(
        api.post("/api/v1/containers", user.key(), server + "}"), 400, "Bad Request", message);
  }

  @Test
  void jsonBodiesOverTheirLimitAre413WithOrWithoutALength() {
    String huge = "{\"name\": \"" + "x".repeat(5 * 1024 * 1024) + "\"}";
    String message = "Request bodies may have at most 4194304 bytes (4 MiB)";
    assertError(api.post("/v1/agents", user.key(), huge), 413, "Payload Too Large", message);
    assertError(
        api.postInChunks("/v1/agents", user.key(), huge), 413, "Payload Too Large", message);
    assertError(
        api.postInChunks("/environments", user.key(), huge), 413, "Payload Too Large", message);
  }

  @Test
  void outOfRangeNumbersAre400NamingTheField() {
    assertError(
        api.post("/api/v1/containers", user.key(), "{\"timeout\": 9223372036854775808}"),
        400,
        "Bad Request",
        "timeout is out of range");
    assertError(
        api.post(
            "/api/v1/containers",
            user.key(),
            "{\"mcpServers\": [{\"type\": \"stdio\", \"name\": \"m\", \"command\": \"npx\","
                + " \"startupTimeoutSec\": 99999999999}]}"),
        400,
        "Bad Request",
        "mcpServers[0].startupTimeoutSec is out of range");
  }
}
