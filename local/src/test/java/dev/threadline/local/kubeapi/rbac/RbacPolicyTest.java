package dev.threadline.local.kubeapi.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class RbacPolicyTest {
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_SINGLE_QUOTES)
          .build();
  private static final UserInfo ALICE = UserInfo.user("alice");
  private static final UserInfo TRIGGER = UserInfo.serviceAccount("alice", "trigger");

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  static JsonNode role(String kind, String namespace, String name, String rules) {
    return json(
        "{'kind':'"
            + kind
            + "','metadata':{'name':'"
            + name
            + "'"
            + (namespace == null ? "" : ",'namespace':'" + namespace + "'")
            + "},'rules':"
            + rules
            + "}");
  }

  static JsonNode binding(
      String namespace, String name, String roleKind, String role, String subjects) {
    return json(
        "{'metadata':{'name':'"
            + name
            + "'"
            + (namespace == null ? "" : ",'namespace':'" + namespace + "'")
            + "},'roleRef':{'apiGroup':'rbac.authorization.k8s.io','kind':'"
            + roleKind
            + "','name':'"
            + role
            + "'},'subjects':"
            + subjects
            + "}");
  }

  static RequestAttributes get(UserInfo user, String ns, String group, String resource) {
    return RequestAttributes.resource(user, "get", ns, group, resource, "", "x");
  }

  @Test
  void aRoleBindingGrantsItsRoleInItsNamespaceOnly() {
    RbacPolicy policy =
        new RbacPolicy(
            List.of(
                role(
                    "Role",
                    "alice",
                    "reader",
                    "[{'apiGroups':['threadline.dev'],'resources':['threads'],'verbs':['get']}]")),
            List.of(),
            List.of(binding("alice", "b", "Role", "reader", "[{'kind':'User','name':'alice'}]")),
            List.of());

    assertThat(policy.allows(get(ALICE, "alice", "threadline.dev", "threads"))).isTrue();
    assertThat(policy.allows(get(ALICE, "bob", "threadline.dev", "threads"))).isFalse();
    assertThat(policy.allows(get(ALICE, "alice", "", "threads"))).isFalse();
    assertThat(policy.allows(get(ALICE, "alice", "threadline.dev", "runs"))).isFalse();
    assertThat(policy.allows(get(UserInfo.user("bob"), "alice", "threadline.dev", "threads")))
        .isFalse();
    assertThat(
            policy.allows(
                RequestAttributes.resource(
                    ALICE, "list", "alice", "threadline.dev", "threads", "", "")))
        .isFalse();
  }

  @Test
  void wildcardsSubresourcesAndResourceNamesMatchAsOnACluster() {
    RbacPolicy policy =
        new RbacPolicy(
            List.of(),
            List.of(
                role(
                    "ClusterRole",
                    null,
                    "mixed",
                    "[{'apiGroups':['*'],'resources':['*/status'],'verbs':['update']},"
                        + "{'apiGroups':[''],'resources':['pods/log'],'verbs':['*']},"
                        + "{'apiGroups':['rbac.authorization.k8s.io'],'resources':['clusterroles'],"
                        + "'resourceNames':['threadline-trigger'],'verbs':['bind']},"
                        + "{'nonResourceURLs':['/metrics','/debug/*'],'verbs':['get']}]")),
            List.of(),
            List.of(
                binding(null, "b", "ClusterRole", "mixed", "[{'kind':'User','name':'alice'}]")));

    assertThat(
            policy.allows(
                RequestAttributes.resource(
                    ALICE, "update", "ns", "apps", "deployments", "status", "d")))
        .isTrue();
    assertThat(
            policy.allows(
                RequestAttributes.resource(ALICE, "update", "ns", "apps", "deployments", "", "d")))
        .isFalse();
    assertThat(
            policy.allows(RequestAttributes.resource(ALICE, "get", "ns", "", "pods", "log", "p")))
        .isTrue();
    assertThat(policy.allows(RequestAttributes.resource(ALICE, "get", "ns", "", "pods", "", "p")))
        .isFalse();
    assertThat(
            policy.allows(
                RequestAttributes.resource(
                    ALICE,
                    "bind",
                    "",
                    "rbac.authorization.k8s.io",
                    "clusterroles",
                    "",
                    "threadline-trigger")))
        .isTrue();
    assertThat(
            policy.allows(
                RequestAttributes.resource(
                    ALICE, "bind", "", "rbac.authorization.k8s.io", "clusterroles", "", "admin")))
        .isFalse();
    assertThat(policy.allows(RequestAttributes.nonResource(ALICE, "get", "/metrics"))).isTrue();
    assertThat(policy.allows(RequestAttributes.nonResource(ALICE, "get", "/debug/pprof"))).isTrue();
    assertThat(policy.allows(RequestAttributes.nonResource(ALICE, "get", "/metricsx"))).isFalse();
    assertThat(policy.allows(RequestAttributes.nonResource(ALICE, "post", "/metrics"))).isFalse();
  }

  @Test
  void serviceAccountAndGroupSubjectsMatchTheAuthenticatorsNames() {
    String rules = "[{'apiGroups':['threadline.dev'],'resources':['schedules'],'verbs':['get']}]";
    RbacPolicy policy =
        new RbacPolicy(
            List.of(),
            List.of(role("ClusterRole", null, "trigger", rules)),
            List.of(
                // A ServiceAccount subject without namespace is the binding's.
                binding(
                    "alice",
                    "sa",
                    "ClusterRole",
                    "trigger",
                    "[{'kind':'ServiceAccount','name':'trigger'}]"),
                binding(
                    "bob",
                    "all-sa-of-alice",
                    "ClusterRole",
                    "trigger",
                    "[{'kind':'Group','name':'system:serviceaccounts:alice'}]")),
            List.of());

    assertThat(TRIGGER.name()).isEqualTo("system:serviceaccount:alice:trigger");
    assertThat(policy.allows(get(TRIGGER, "alice", "threadline.dev", "schedules"))).isTrue();
    assertThat(policy.allows(get(TRIGGER, "bob", "threadline.dev", "schedules"))).isTrue();
    assertThat(policy.allows(get(TRIGGER, "carol", "threadline.dev", "schedules"))).isFalse();
    UserInfo other = UserInfo.serviceAccount("carol", "trigger");
    assertThat(policy.allows(get(other, "alice", "threadline.dev", "schedules"))).isFalse();
    assertThat(policy.allows(get(other, "bob", "threadline.dev", "schedules"))).isFalse();
  }

  @Test
  void anAggregatedClusterRoleHoldsTheRulesOfTheRolesItsSelectorsPick() {
    RbacPolicy policy =
        new RbacPolicy(
            List.of(),
            List.of(
                json(
                    "{'metadata':{'name':'view'},'aggregationRule':{'clusterRoleSelectors':["
                        + "{'matchLabels':{'aggregate-to-view':'true'}},"
                        + "{'matchExpressions':[{'key':'tier','operator':'In','values':['gold']}]}]},"
                        + "'rules':[]}"),
                json(
                    "{'metadata':{'name':'threads','labels':{'aggregate-to-view':'true'}},'rules':"
                        + "[{'apiGroups':['threadline.dev'],'resources':['threads'],'verbs':['get']}]}"),
                json(
                    "{'metadata':{'name':'runs','labels':{'tier':'gold'}},'rules':"
                        + "[{'apiGroups':['threadline.dev'],'resources':['runs'],'verbs':['get']}]}"),
                json(
                    "{'metadata':{'name':'secrets','labels':{'aggregate-to-view':'false'}},'rules':"
                        + "[{'apiGroups':[''],'resources':['secrets'],'verbs':['get']}]}")),
            List.of(
                binding("alice", "v", "ClusterRole", "view", "[{'kind':'User','name':'alice'}]")),
            List.of());

    assertThat(policy.allows(get(ALICE, "alice", "threadline.dev", "threads"))).isTrue();
    assertThat(policy.allows(get(ALICE, "alice", "threadline.dev", "runs"))).isTrue();
    assertThat(policy.allows(get(ALICE, "alice", "", "secrets"))).isFalse();
    assertThat(policy.rulesFor(ALICE, "alice")).hasSize(2);
    assertThat(policy.rulesFor(ALICE, "bob")).isEmpty();
  }

  @Test
  void theMastersGroupBypassesAndEverythingElseIsDeniedByDefault() {
    RbacPolicy policy = RbacPolicy.empty();
    assertThat(policy.allows(get(UserInfo.administrator(), "any", "", "secrets"))).isTrue();
    assertThat(policy.allows(get(ALICE, "alice", "", "secrets"))).isFalse();
    assertThat(policy.allows(RequestAttributes.nonResource(ALICE, "get", "/api"))).isFalse();
  }

  @Test
  void theForbiddenMessageIsKubeApiserversOwn() {
    assertThat(
            Forbidden.message(
                RequestAttributes.resource(
                    ALICE, "get", "bob", "threadline.dev", "threads", "", "t1")))
        .isEqualTo(
            "threads.threadline.dev \"t1\" is forbidden: User \"alice\" cannot get resource"
                + " \"threads\" in API group \"threadline.dev\" in the namespace \"bob\"");
    assertThat(
            Forbidden.message(RequestAttributes.resource(ALICE, "list", "", "", "nodes", "", "")))
        .isEqualTo(
            "nodes is forbidden: User \"alice\" cannot list resource \"nodes\" in API group \"\""
                + " at the cluster scope");
    assertThat(
            Forbidden.message(
                RequestAttributes.resource(ALICE, "get", "bob", "", "pods", "log", "p")))
        .isEqualTo(
            "pods \"p\" is forbidden: User \"alice\" cannot get resource \"pods/log\" in API group"
                + " \"\" in the namespace \"bob\"");
    assertThat(Forbidden.message(RequestAttributes.nonResource(ALICE, "get", "/metrics")))
        .isEqualTo("forbidden: User \"alice\" cannot get path \"/metrics\"");
  }

  @Test
  void aBindingMayGrantOnlyWhatItsWriterHoldsOrMayBind() {
    String triggerRules =
        "[{'apiGroups':['threadline.dev'],'resources':['threads','runs'],'verbs':['create']}]";
    RbacPolicy policy =
        new RbacPolicy(
            List.of(),
            List.of(
                role("ClusterRole", null, "threadline-trigger", triggerRules),
                role(
                    "ClusterRole",
                    null,
                    "cluster-admin",
                    "[{'apiGroups':['*'],'resources':['*'],'verbs':['*']}]"),
                role(
                    "ClusterRole",
                    null,
                    "binder",
                    "[{'apiGroups':['rbac.authorization.k8s.io'],'resources':['clusterroles'],"
                        + "'resourceNames':['threadline-trigger'],'verbs':['bind']}]")),
            List.of(),
            List.of(
                binding(
                    null, "b", "ClusterRole", "binder", "[{'kind':'User','name':'operator'}]")));
    UserInfo operator = UserInfo.user("operator");
    JsonNode toTrigger =
        binding(
            "alice",
            "t",
            "ClusterRole",
            "threadline-trigger",
            "[{'kind':'ServiceAccount','name':'t'}]");
    JsonNode toAdmin =
        binding(
            "alice", "a", "ClusterRole", "cluster-admin", "[{'kind':'User','name':'operator'}]");

    assertThat(EscalationCheck.refusal(policy, operator, "rolebindings", "alice", toTrigger))
        .isEmpty();
    assertThat(EscalationCheck.refusal(policy, operator, "rolebindings", "alice", toAdmin))
        .hasValueSatisfying(message ->
            assertThat(message)
                .startsWith(
                    "rolebindings.rbac.authorization.k8s.io \"a\" is forbidden: user \"operator\"")
                .contains("attempting to grant RBAC permissions not currently held")
                .contains("Resources:[\"*\"]"));
    assertThat(
            EscalationCheck.refusal(
                policy,
                operator,
                "roles",
                "alice",
                role(
                    "Role",
                    "alice",
                    "r",
                    "[{'apiGroups':[''],'resources':['secrets'],'verbs':['get']}]")))
        .isPresent();
    assertThat(
            EscalationCheck.refusal(
                policy, UserInfo.administrator(), "rolebindings", "alice", toAdmin))
        .isEmpty();
  }
}
