package dev.threadline.local.kubeapi.rbac;

import static dev.threadline.local.kubeapi.rbac.RbacPolicyTest.binding;
import static dev.threadline.local.kubeapi.rbac.RbacPolicyTest.json;
import static dev.threadline.local.kubeapi.rbac.RbacPolicyTest.role;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessReviewsTest {
  private static final UserInfo ALICE = UserInfo.user("alice");
  private static final RbacPolicy POLICY =
      new RbacPolicy(
          List.of(
              role(
                  "Role",
                  "alice",
                  "user",
                  "[{'apiGroups':[''],'resources':['secrets'],'verbs':['get','list']}]")),
          List.of(
              role(
                  "ClusterRole",
                  null,
                  "discovery",
                  "[{'nonResourceURLs':['/api'],'verbs':['get']}]")),
          List.of(binding("alice", "u", "Role", "user", "[{'kind':'User','name':'alice'}]")),
          List.of(
              binding(
                  null,
                  "d",
                  "ClusterRole",
                  "discovery",
                  "[{'kind':'Group','name':'system:authenticated'}]")));

  private static JsonNode access(String namespace) {
    return AccessReviews.answer(
        POLICY,
        ALICE,
        AccessReviews.ACCESS_REVIEWS,
        json(
            "{'apiVersion':'authorization.k8s.io/v1','kind':'SelfSubjectAccessReview','spec':"
                + "{'resourceAttributes':{'namespace':'"
                + namespace
                + "','verb':'list','resource':'secrets'}}}"));
  }

  @Test
  void anAccessReviewAnswersFromThePolicy() {
    JsonNode own = access("alice");
    assertThat(own.at("/status/allowed").asBoolean()).isTrue();
    assertThat(own.at("/status/reason").asText())
        .isEqualTo("RBAC: allowed by RoleBinding \"u/alice\" of Role \"user\" to User \"alice\"");
    assertThat(own.at("/spec/resourceAttributes/verb").asText()).isEqualTo("list");
    assertThat(access("bob").at("/status/allowed").asBoolean()).isFalse();
  }

  @Test
  void anAccessReviewNamesExactlyOneKindOfAttributes() {
    assertThatThrownBy(() ->
            AccessReviews.answer(POLICY, ALICE, AccessReviews.ACCESS_REVIEWS, json("{'spec':{}}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spec.resourceAttributes");
  }

  @Test
  void aRulesReviewListsTheNamespacesAndTheClustersRules() {
    JsonNode answer =
        AccessReviews.answer(
            POLICY,
            ALICE,
            AccessReviews.RULES_REVIEWS,
            json("{'kind':'SelfSubjectRulesReview','spec':{'namespace':'alice'}}"));
    assertThat(answer.at("/status/resourceRules/0/resources/0").asText()).isEqualTo("secrets");
    assertThat(answer.at("/status/resourceRules/0/verbs").size()).isEqualTo(2);
    assertThat(answer.at("/status/nonResourceRules/0/nonResourceURLs/0").asText())
        .isEqualTo("/api");
    assertThat(answer.at("/status/incomplete").asBoolean()).isFalse();
    JsonNode elsewhere =
        AccessReviews.answer(
            POLICY, ALICE, AccessReviews.RULES_REVIEWS, json("{'spec':{'namespace':'bob'}}"));
    assertThat(elsewhere.at("/status/resourceRules").size()).isZero();
  }
}
