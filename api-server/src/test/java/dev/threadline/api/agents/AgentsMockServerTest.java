package dev.threadline.api.agents;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static dev.threadline.api.support.ErrorAssertions.assertErrorShape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class AgentsMockServerTest {
  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void createGetPatchListDelete() {
    TestUser alice = shared.newUser("alice");
    Instant before = Instant.now().minusSeconds(2);

    ApiClient.Response created =
        api.post(
            "/v1/agents",
            alice.key(),
            "{\"name\": \"Helper\", \"model\": \"gpt-4.1-mini\", \"provider\": \"openai\","
                + " \"instructions\": \"Be brief\"}");

    assertThat(created.status()).isEqualTo(201);
    JsonNode agent = created.json().get("agent");
    String id = agent.get("id").asString();
    assertThat(id).matches("agent_[a-z0-9]{20}");
    assertThat(created.header("Location")).isEqualTo("/v1/agents/" + id);
    assertThat(agent.get("userId").asString()).isEqualTo(alice.userId());
    assertThat(agent.get("name").asString()).isEqualTo("Helper");
    assertThat(agent.get("provider").asString()).isEqualTo("openai");
    assertThat(agent.get("model").asString()).isEqualTo("gpt-4.1-mini");
    assertThat(agent.get("instructions").asString()).isEqualTo("Be brief");
    assertThat(agent.get("createdAt").asString()).endsWith("Z");
    assertThat(Instant.parse(agent.get("updatedAt").asString())).isAfter(before);
    Agent stored =
        shared
            .client()
            .resources(Agent.class)
            .inNamespace(alice.namespace())
            .withName(id.replace('_', '-'))
            .get();
    assertThat(stored.getSpec().getDisplayName()).isEqualTo("Helper");

    ApiClient.Response fetched = api.get("/v1/agents/" + id, alice.key());
    assertThat(fetched.status()).isEqualTo(200);
    assertThat(fetched.json().get("agent")).isEqualTo(agent);

    ApiClient.Response patched =
        api.patch(
            "/v1/agents/" + id, alice.key(), "{\"model\": \"gpt-5\", \"instructions\": \"\"}");
    assertThat(patched.status()).isEqualTo(200);
    JsonNode updated = patched.json().get("agent");
    assertThat(updated.get("model").asString()).isEqualTo("gpt-5");
    assertThat(updated.get("name").asString()).isEqualTo("Helper");
    assertThat(updated.get("provider").asString()).isEqualTo("openai");
    assertThat(updated.get("instructions").isNull()).isTrue();
    assertThat(Instant.parse(updated.get("updatedAt").asString()))
        .isAfterOrEqualTo(Instant.parse(agent.get("updatedAt").asString()));
    // Read right after the write: this replica's cache already reflects it.
    assertThat(api.get("/v1/agents/" + id, alice.key()).json().get("agent")).isEqualTo(updated);

    ApiClient.Response list = api.get("/v1/agents", alice.key());
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.text("object")).isEqualTo("list");
    assertThat(list.json().get("has_more").asBoolean()).isFalse();
    assertThat(list.json().get("total_count").asInt()).isEqualTo(1);
    assertThat(list.json().get("data").get(0)).isEqualTo(updated);
    assertThat(list.json().has("stats")).isFalse();

    ApiClient.Response deleted = api.delete("/v1/agents/" + id, alice.key());
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.body()).isEqualTo("{\"success\":true}");
    assertError(
        api.get("/v1/agents/" + id, alice.key()), 404, "Not Found", "Agent " + id + " not found");
    assertError(
        api.delete("/v1/agents/" + id, alice.key()),
        404,
        "Not Found",
        "Agent " + id + " not found");
  }

  @Test
  void anApprovalPolicyIsStoredOnTheAgentShownAndReplacedOrRemovedByAPatch() {
    TestUser olga = shared.newUser("olga");
    ApiClient.Response created =
        api.post(
            "/v1/agents",
            olga.key(),
            "{\"name\": \"careful\", \"model\": \"scripted-1\", \"approvals\":"
                + " {\"commands\": [{\"match\": \"git push*\", \"action\": \"ask\"}],"
                + " \"tools\": [{\"match\": \"write_file\", \"action\": \"ask\"}],"
                + " \"askUser\": true}}");
    assertThat(created.status()).isEqualTo(201);
    JsonNode approvals = created.json().get("agent").get("approvals");
    assertThat(approvals.get("default").asString()).isEqualTo("allow");
    assertThat(approvals.get("commands").get(0).get("match").asString()).isEqualTo("git push*");
    assertThat(approvals.get("tools").get(0).get("action").asString()).isEqualTo("ask");
    assertThat(approvals.get("askUser").asBoolean()).isTrue();
    String id = created.json().get("agent").get("id").asString();
    Agent stored =
        shared
            .client()
            .resources(Agent.class)
            .inNamespace(olga.namespace())
            .withName(id.replace('_', '-'))
            .get();
    assertThat(stored.getSpec().getApprovals().getCommands().get(0).getMatch())
        .isEqualTo("git push*");

    JsonNode replaced =
        api.patch("/v1/agents/" + id, olga.key(), "{\"approvals\": {\"default\": \"ask\"}}")
            .json()
            .get("agent")
            .get("approvals");
    assertThat(replaced.get("default").asString()).isEqualTo("ask");
    assertThat(replaced.get("commands")).isEmpty();
    assertThat(
            api.patch("/v1/agents/" + id, olga.key(), "{\"name\": \"kept\"}")
                .json()
                .get("agent")
                .get("approvals")
                .get("default")
                .asString())
        .isEqualTo("ask");
    assertThat(
            api.patch("/v1/agents/" + id, olga.key(), "{\"approvals\": null}")
                .json()
                .get("agent")
                .get("approvals")
                .isNull())
        .isTrue();
    assertError(
        api.patch(
            "/v1/agents/" + id,
            olga.key(),
            "{\"approvals\": {\"commands\": [{\"match\": \"x\", \"action\": \"never\"}]}}"),
        400,
        "Bad Request",
        "approvals.commands[0].action must be allow or ask");
  }

  @Test
  void aModelWithoutAPriceIsRefused() {
    TestUser ivan = shared.newUser("ivan");
    String unpriced =
        "model has no known price: configure one (or a default '*' price) in"
            + " THREADLINE_MODEL_PRICES";

    assertError(
        api.post(
            "/v1/agents",
            ivan.key(),
            "{\"name\": \"a\", \"model\": \"gpt-9\", \"provider\": \"openai\"}"),
        400,
        "Bad Request",
        unpriced);
    assertThat(api.get("/v1/agents", ivan.key()).json().get("total_count").asInt()).isZero();

    // Scripted agents cost nothing whatever their model's name.
    String id =
        api.post("/v1/agents", ivan.key(), "{\"name\": \"a\", \"model\": \"gpt-9\"}")
            .json()
            .get("agent")
            .get("id")
            .asString();
    assertError(
        api.patch("/v1/agents/" + id, ivan.key(), "{\"provider\": \"anthropic\"}"),
        400,
        "Bad Request",
        unpriced);
    assertThat(
            api.patch(
                    "/v1/agents/" + id,
                    ivan.key(),
                    "{\"provider\": \"openai\", \"model\": \"gpt-4.1-mini-2025-04-14\"}")
                .json()
                .get("agent")
                .get("provider")
                .asString())
        .isEqualTo("openai");
    assertError(
        api.patch("/v1/agents/" + id, ivan.key(), "{\"model\": \"claude-x\"}"),
        400,
        "Bad Request",
        unpriced);
    assertThat(api.get("/v1/agents/" + id, ivan.key()).json().get("agent").get("model").asString())
        .isEqualTo("gpt-4.1-mini-2025-04-14");
  }

  @Test
  void providerDefaultsToScripted() {
    TestUser erin = shared.newUser("erin");

    JsonNode agent =
        api.post("/v1/agents", erin.key(), "{\"name\": \"A\", \"model\": \"m\"}")
            .json()
            .get("agent");

    assertThat(agent.get("provider").asString()).isEqualTo("scripted");
    assertThat(agent.get("instructions").isNull()).isTrue();
  }

  @Test
  void paginatesInCreationOrderWithHasMoreAndTotalCount() {
    TestUser frank = shared.newUser("frank");
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      created.add(
          api.post("/v1/agents", frank.key(), "{\"name\": \"a" + i + "\", \"model\": \"m\"}")
              .json()
              .get("agent")
              .get("id")
              .asString());
    }

    ApiClient.Response first = api.get("/v1/agents?limit=2", frank.key());
    ApiClient.Response second = api.get("/v1/agents?limit=2&offset=2", frank.key());
    ApiClient.Response last = api.get("/v1/agents?limit=2&offset=4", frank.key());
    ApiClient.Response beyond = api.get("/v1/agents?offset=10", frank.key());

    assertPage(first, 2, true);
    assertPage(second, 2, true);
    assertPage(last, 1, false);
    assertPage(beyond, 0, false);
    List<String> listed = new ArrayList<>();
    for (ApiClient.Response page : List.of(first, second, last)) {
      page.json().get("data").forEach(item -> listed.add(item.get("id").asString()));
    }
    assertThat(listed).containsExactlyInAnyOrderElementsOf(created);
    List<String> createdAt = new ArrayList<>();
    for (ApiClient.Response page : List.of(first, second, last)) {
      page.json().get("data").forEach(item -> createdAt.add(item.get("createdAt").asString()));
    }
    assertThat(createdAt).isSorted();
  }

  @Test
  void anotherUsersAgentIsNotFound() {
    TestUser alice = shared.newUser("alice");
    TestUser bob = shared.newUser("bob");
    String id =
        api.post("/v1/agents", alice.key(), "{\"name\": \"Mine\", \"model\": \"m\"}")
            .json()
            .get("agent")
            .get("id")
            .asString();
    String notFound = "Agent " + id + " not found";

    assertError(api.get("/v1/agents/" + id, bob.key()), 404, "Not Found", notFound);
    assertError(
        api.patch("/v1/agents/" + id, bob.key(), "{\"name\": \"Stolen\"}"),
        404,
        "Not Found",
        notFound);
    assertError(api.delete("/v1/agents/" + id, bob.key()), 404, "Not Found", notFound);
    assertThat(api.get("/v1/agents", bob.key()).json().get("total_count").asInt()).isZero();
    assertThat(api.get("/v1/agents/" + id, alice.key()).json().get("agent").get("name").asString())
        .isEqualTo("Mine");
  }

  @Test
  void malformedOrForeignKindIdIsNotFound() {
    TestUser gina = shared.newUser("gina");
    // Made with kubectl under a name no REST id maps to: neither fetchable nor listed.
    Agent foreign = new Agent();
    foreign.setMetadata(
        new ObjectMetaBuilder().withName("handmade").withNamespace(gina.namespace()).build());
    foreign.setSpec(new AgentSpec());
    foreign.getSpec().setModel("m");
    shared.client().resources(Agent.class).resource(foreign).create();
    String visible =
        api.post("/v1/agents", gina.key(), "{\"name\": \"a\", \"model\": \"m\"}")
            .json()
            .get("agent")
            .get("id")
            .asString();

    ApiClient.Response list = api.get("/v1/agents", gina.key());
    assertThat(list.json().get("total_count").asInt()).isEqualTo(1);
    assertThat(list.json().get("data").get(0).get("id").asString()).isEqualTo(visible);
    assertError(
        api.get("/v1/agents/handmade", gina.key()), 404, "Not Found", "Agent handmade not found");

    assertError(
        api.get("/v1/agents/not_an_agent", gina.key()),
        404,
        "Not Found",
        "Agent not_an_agent not found");
    assertError(
        api.get("/v1/agents/agent_UPPER", gina.key()),
        404,
        "Not Found",
        "Agent agent_UPPER not found");
    assertError(
        api.get("/v1/agents/thread_abc", gina.key()),
        404,
        "Not Found",
        "Agent thread_abc not found");
  }

  @Test
  void invalidFieldsAre400NamingTheField() {
    TestUser hank = shared.newUser("hank");

    assertError(
        api.post("/v1/agents", hank.key(), "{\"model\": \"m\"}"),
        400,
        "Bad Request",
        "name is required");
    assertError(
        api.post("/v1/agents", hank.key(), "{\"name\": \"a\"}"),
        400,
        "Bad Request",
        "model is required");
    assertError(
        api.post("/v1/agents", hank.key(), "{\"name\": \" \", \"model\": \"m\"}"),
        400,
        "Bad Request",
        "name must not be blank");
    assertError(
        api.post(
            "/v1/agents",
            hank.key(),
            "{\"name\": \"a\", \"model\": \"m\", \"provider\": \"gemini\"}"),
        400,
        "Bad Request",
        "provider must be one of scripted, openai, anthropic");
    assertError(
        api.post(
            "/v1/agents", hank.key(), "{\"name\": \"" + "x".repeat(201) + "\", \"model\": \"m\"}"),
        400,
        "Bad Request",
        "name must be at most 200 characters");
    String id =
        api.post("/v1/agents", hank.key(), "{\"name\": \"a\", \"model\": \"m\"}")
            .json()
            .get("agent")
            .get("id")
            .asString();
    assertError(
        api.patch("/v1/agents/" + id, hank.key(), "{\"provider\": \"x\"}"),
        400,
        "Bad Request",
        "provider must be one of scripted, openai, anthropic");
    assertError(
        api.patch("/v1/agents/" + id, hank.key(), "{\"model\": \"\"}"),
        400,
        "Bad Request",
        "model must not be blank");
  }

  @Test
  void aClusterRefusalIs503SayingWhatHappenedWithoutItsInternals() {
    TestUser ivy = shared.newUser("ivy");
    // A refusal by the cluster's RBAC (or a quota) is not the caller's mistake, and not a bare 500
    // either: a 503 that says the cluster refused, the cluster's words in the log only.
    shared
        .kubernetes()
        .expect()
        .post()
        .withPath("/apis/threadline.dev/v1alpha1/namespaces/" + ivy.namespace() + "/agents")
        .andReturn(
            403,
            new StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withMessage(
                    "agents is forbidden: system:serviceaccount:threadline-system:api cannot create"
                        + " secret internals")
                .build())
        .once();

    ApiClient.Response response =
        api.post("/v1/agents", ivy.key(), "{\"name\": \"a\", \"model\": \"m\"}");

    assertErrorShape(response, 503, "Service Unavailable");
    assertThat(response.text("message")).startsWith("The cluster refused this operation");
    assertThat(response.body())
        .doesNotContain("forbidden", "serviceaccount", "internals", "Exception", "at dev.");
  }

  private static void assertPage(ApiClient.Response page, int size, boolean hasMore) {
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.text("object")).isEqualTo("list");
    assertThat(page.json().get("data").size()).isEqualTo(size);
    assertThat(page.json().get("has_more").asBoolean()).isEqualTo(hasMore);
    assertThat(page.json().get("total_count").asInt()).isEqualTo(5);
  }
}
