package dev.threadline.helm;

import static dev.threadline.helm.RenderedChart.container;
import static dev.threadline.helm.RenderedChart.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.TemplateCommand;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The history store's values: one PostgreSQL database for the operator and the api-server. */
class ChartHistoryTest {

  private static final List<String> DEPLOYMENTS =
      List.of("threadline-operator", "threadline-api-server");
  private static final String CA_DIR = "/etc/threadline/history-ca";

  @Test
  void bothDeploymentsGetTheDatabaseUrlPoolAndCredentialsFromTheSecret() {
    RenderedChart chart = RenderedChart.withDefaults();

    for (String name : DEPLOYMENTS) {
      JsonNode deployment = chart.get("Deployment", name);
      Map<String, JsonNode> env = env(container(deployment));

      assertThat(env.get("THREADLINE_HISTORY_URL").path("value").asText())
          .as(name)
          .isEqualTo("jdbc:postgresql://history-rw.databases.svc:5432/threadline?sslmode=require");
      assertThat(env.get("THREADLINE_HISTORY_POOL_SIZE").path("value").asText())
          .as(name)
          .isEqualTo("10");
      assertSecretRef(name, env.get("THREADLINE_HISTORY_USER"), "history-app", "username");
      assertSecretRef(name, env.get("THREADLINE_HISTORY_PASSWORD"), "history-app", "password");
      // Without a CA nothing is mounted.
      assertThat(deployment.at("/spec/template/spec/volumes").findValuesAsText("name"))
          .as(name)
          .doesNotContain("history-ca");
    }
  }

  @ParameterizedTest(name = "CA from a {0}")
  @CsvSource({"secret,secretName", "configMap,configMapName"})
  void verifiedTlsMountsTheCaReadOnlyAndPassesItAsSslRootCert(String source, String value) {
    RenderedChart chart =
        RenderedChart.render(t ->
            t.set("history.tls.mode", "verify-full")
                .set("history.tls.ca." + value, "history-ca")
                .set("history.tls.ca.key", "root.pem")
                .set("history.port", 5433)
                .set("history.poolSize", 4)
                .set("history.existingSecret", "pg-creds")
                .set("history.userKey", "user")
                .set("history.passwordKey", "pass"));

    for (String name : DEPLOYMENTS) {
      JsonNode deployment = chart.get("Deployment", name);
      JsonNode container = container(deployment);
      Map<String, JsonNode> env = env(container);

      assertThat(env.get("THREADLINE_HISTORY_URL").path("value").asText())
          .as(name)
          .isEqualTo(
              "jdbc:postgresql://history-rw.databases.svc:5433/threadline"
                  + "?sslmode=verify-full&sslrootcert="
                  + CA_DIR
                  + "/root.pem");
      assertThat(env.get("THREADLINE_HISTORY_POOL_SIZE").path("value").asText()).isEqualTo("4");
      assertSecretRef(name, env.get("THREADLINE_HISTORY_USER"), "pg-creds", "user");
      assertSecretRef(name, env.get("THREADLINE_HISTORY_PASSWORD"), "pg-creds", "pass");

      JsonNode mount = named(container.path("volumeMounts"), "history-ca");
      assertThat(mount.path("mountPath").asText()).as(name).isEqualTo(CA_DIR);
      assertThat(mount.path("readOnly").asBoolean()).as(name).isTrue();
      JsonNode volume = named(deployment.at("/spec/template/spec/volumes"), "history-ca");
      JsonNode from = volume.path(source);
      assertThat(from.path(source.equals("secret") ? "secretName" : "name").asText())
          .as(name)
          .isEqualTo("history-ca");
      assertThat(from.at("/items/0/key").asText()).as(name).isEqualTo("root.pem");
      assertThat(from.at("/items/0/path").asText()).as(name).isEqualTo("root.pem");
    }
  }

  @Test
  void theNonDefaultValuesVerifyTheServerAndReachOnlyTheClustersPods() {
    RenderedChart chart = RenderedChart.withNonDefaultValues();

    for (String name : List.of("tl-operator", "tl-api-server")) {
      Map<String, JsonNode> env = env(container(chart.get("Deployment", name)));
      assertThat(env.get("THREADLINE_HISTORY_URL").path("value").asText())
          .as(name)
          .isEqualTo(
              "jdbc:postgresql://history-rw.databases.svc:5433/threadline_prod"
                  + "?sslmode=verify-full&sslrootcert="
                  + CA_DIR
                  + "/ca.crt");
      assertSecretRef(name, env.get("THREADLINE_HISTORY_PASSWORD"), "history-app", "pass");

      JsonNode peer = databaseRule(chart.get("NetworkPolicy", name), 5432).at("/to/0");
      assertThat(peer.at("/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText())
          .isEqualTo("databases");
      assertThat(peer.at("/podSelector/matchLabels/cnpg.io~1cluster").asText())
          .isEqualTo("history");
    }
  }

  @Test
  void noPasswordIsEverAPlainValue() {
    for (RenderedChart chart :
        List.of(RenderedChart.withDefaults(), RenderedChart.withNonDefaultValues())) {
      for (JsonNode deployment : chart.ofKind("Deployment")) {
        JsonNode password = env(container(deployment)).get("THREADLINE_HISTORY_PASSWORD");
        assertThat(password.has("value")).isFalse();
        assertThat(password.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("history-app");
      }
      assertThat(chart.ofKind("Secret"))
          .allSatisfy(s -> assertThat(s.toString()).doesNotContain("history"));
    }
  }

  @Test
  void retentionGoesToTheOperatorAndTheHistoryQuotaToBoth() {
    RenderedChart defaults = RenderedChart.withDefaults();
    Map<String, JsonNode> operator =
        env(container(defaults.get("Deployment", "threadline-operator")));
    Map<String, JsonNode> api = env(container(defaults.get("Deployment", "threadline-api-server")));

    assertThat(operator.get("THREADLINE_RUN_RETENTION").path("value").asText()).isEqualTo("10m");
    assertThat(operator.get("THREADLINE_THREAD_RETENTION").path("value").asText()).isEqualTo("7d");
    assertThat(api.get("THREADLINE_LIMITS_HISTORYBYTES").path("value").asText()).isEqualTo("1GB");
    // The operator holds a schedule's runs to the same quota.
    assertThat(operator.get("THREADLINE_LIMITS_HISTORYBYTES").path("value").asText())
        .isEqualTo("1GB");
    assertThat(api).doesNotContainKey("THREADLINE_RUN_RETENTION");

    RenderedChart set =
        RenderedChart.render(t ->
            t.set("retention.runs", "30s")
                .set("retention.threads", "2h")
                .set("limits.historyBytes", "5GB"));
    operator = env(container(set.get("Deployment", "threadline-operator")));
    api = env(container(set.get("Deployment", "threadline-api-server")));
    assertThat(operator.get("THREADLINE_RUN_RETENTION").path("value").asText()).isEqualTo("30s");
    assertThat(operator.get("THREADLINE_THREAD_RETENTION").path("value").asText()).isEqualTo("2h");
    assertThat(api.get("THREADLINE_LIMITS_HISTORYBYTES").path("value").asText()).isEqualTo("5GB");
    assertThat(operator.get("THREADLINE_LIMITS_HISTORYBYTES").path("value").asText())
        .isEqualTo("5GB");
  }

  @Test
  void withoutADatabaseTheChartRefusesToRenderAndSaysWhatToSet() {
    TemplateCommand bare = RenderedChart.templateWithoutDatabase();

    assertThatThrownBy(bare::call)
        .hasMessageContaining("no history database")
        .hasMessageContaining("history.host, history.database and history.existingSecret")
        .hasMessageContaining("History store (PostgreSQL)");

    TemplateCommand noSecret =
        RenderedChart.templateWithoutDatabase()
            .set("history.host", "db.example.com")
            .set("history.database", "threadline");
    assertThatThrownBy(noSecret::call).hasMessageContaining("no history database");
  }

  @Test
  void certificateCheckingModesNeedACa() {
    TemplateCommand verifyWithoutCa = RenderedChart.template().set("history.tls.mode", "verify-ca");
    assertThatThrownBy(verifyWithoutCa::call)
        .hasMessageContaining("history.tls.mode verify-ca")
        .hasMessageContaining("history.tls.ca.secretName");

    TemplateCommand both =
        RenderedChart.template()
            .set("history.tls.ca.secretName", "a")
            .set("history.tls.ca.configMapName", "b");
    assertThatThrownBy(both::call).hasMessageContaining("secretName or configMapName, not both");
  }

  @ParameterizedTest(name = "schema rejects {0}")
  @ValueSource(
      strings = {
        "history.tls.mode=verify",
        "history.host=db/evil?x",
        "history.database=a?b",
        "history.poolSize=0",
        "history.networkPolicy.port=70000",
        "retention.runs=10",
        "limits.historyBytes=lots"
      })
  void schemaRejectsBadHistoryValues(String assignment) {
    String[] parts = assignment.split("=", 2);
    TemplateCommand command = RenderedChart.template().set(parts[0], parts[1]);

    assertThatThrownBy(command::call)
        .hasMessageContaining("values don't meet the specifications of the schema")
        .hasMessageContaining("/" + parts[0].replace('.', '/'));
  }

  @Test
  void theNetworkPolicyLetsBothReachTheDatabaseOnItsPort() {
    RenderedChart policed =
        RenderedChart.render(t ->
            t.set("networkPolicy.enabled", true)
                .set("networkPolicy.egress.enabled", true)
                .set("history.networkPolicy.namespaceSelector.matchLabels.team", "data")
                .set("history.networkPolicy.podSelector.matchLabels.cnpg\\.io/cluster", "history")
                .set("history.networkPolicy.port", 5433));

    for (String name : DEPLOYMENTS) {
      JsonNode rule = databaseRule(policed.get("NetworkPolicy", name), 5433);
      assertThat(rule.path("to")).as(name).hasSize(1);
      JsonNode peer = rule.at("/to/0");
      assertThat(peer.at("/namespaceSelector/matchLabels/team").asText()).isEqualTo("data");
      assertThat(peer.at("/podSelector/matchLabels/cnpg.io~1cluster").asText())
          .isEqualTo("history");
    }
  }

  @Test
  void aDatabaseOutsideTheClusterIsReachedByCidrAndWithoutPeersAnyDestinationOnThePort() {
    RenderedChart byCidr =
        RenderedChart.render(t ->
            t.set("networkPolicy.enabled", true)
                .set("networkPolicy.egress.enabled", true)
                .set("history.networkPolicy.cidrs[0]", "10.20.0.5/32"));
    RenderedChart anywhere =
        RenderedChart.render(
            t -> t.set("networkPolicy.enabled", true).set("networkPolicy.egress.enabled", true));

    for (String name : DEPLOYMENTS) {
      JsonNode rule = databaseRule(byCidr.get("NetworkPolicy", name), 5432);
      assertThat(rule.at("/to/0/ipBlock/cidr").asText()).as(name).isEqualTo("10.20.0.5/32");
      assertThat(rule.path("to")).as(name).hasSize(1);

      assertThat(databaseRule(anywhere.get("NetworkPolicy", name), 5432).has("to"))
          .as(name)
          .isFalse();
    }
  }

  /** The one egress rule whose only port is the database's. */
  private static JsonNode databaseRule(JsonNode policy, int port) {
    assertThat(policy.at("/spec/policyTypes").toString()).contains("Egress");
    List<JsonNode> rules =
        StreamSupport.stream(policy.at("/spec/egress").spliterator(), false)
            .filter(r -> r.path("ports").size() == 1)
            .filter(r -> r.at("/ports/0/port").asInt() == port)
            .filter(r -> r.at("/ports/0/protocol").asText().equals("TCP"))
            .toList();
    assertThat(rules).as("egress rules to port %d of %s", port, policy).hasSize(1);
    return rules.get(0);
  }

  private static void assertSecretRef(String name, JsonNode var, String secret, String key) {
    assertThat(var.has("value")).as(name).isFalse();
    assertThat(var.at("/valueFrom/secretKeyRef/name").asText()).as(name).isEqualTo(secret);
    assertThat(var.at("/valueFrom/secretKeyRef/key").asText()).as(name).isEqualTo(key);
  }

  private static JsonNode named(JsonNode list, String name) {
    return StreamSupport.stream(list.spliterator(), false)
        .filter(n -> n.path("name").asText().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " in " + list));
  }
}
