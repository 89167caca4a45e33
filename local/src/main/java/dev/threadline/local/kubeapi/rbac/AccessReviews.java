package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * {@code authorization.k8s.io/v1} SelfSubjectAccessReview and SelfSubjectRulesReview, answered from
 * the same {@link RbacPolicy} that authorises requests, so that {@code kubectl auth can-i} (and its
 * {@code --list}) tells the truth. The answer is the request with its {@code status} filled in;
 * nothing is stored.
 */
public final class AccessReviews {
  public static final String GROUP = "authorization.k8s.io";
  public static final String ACCESS_REVIEWS = "selfsubjectaccessreviews";
  public static final String RULES_REVIEWS = "selfsubjectrulesreviews";

  private AccessReviews() {}

  /** Whether a resource of {@code group} is one of the two reviews. */
  public static boolean isReview(String group, String resource) {
    return GROUP.equals(group)
        && (ACCESS_REVIEWS.equals(resource) || RULES_REVIEWS.equals(resource));
  }

  /**
   * The review answered.
   *
   * @throws IllegalArgumentException naming the field that makes the review invalid
   */
  public static ObjectNode answer(
      RbacPolicy policy, UserInfo user, String resource, JsonNode body) {
    if (!(body instanceof ObjectNode request)) {
      throw new IllegalArgumentException("the body of the request must be a JSON object");
    }
    ObjectNode answer = request.deepCopy();
    answer.put("apiVersion", GROUP + "/v1");
    answer.put(
        "kind",
        resource.equals(ACCESS_REVIEWS) ? "SelfSubjectAccessReview" : "SelfSubjectRulesReview");
    if (!answer.path("metadata").isObject()) {
      answer.putObject("metadata");
    }
    JsonNode spec = request.path("spec");
    answer.set(
        "status",
        resource.equals(ACCESS_REVIEWS)
            ? accessStatus(policy, user, spec)
            : rulesStatus(policy, user, spec));
    return answer;
  }

  private static ObjectNode accessStatus(RbacPolicy policy, UserInfo user, JsonNode spec) {
    JsonNode resource = spec.path("resourceAttributes");
    JsonNode path = spec.path("nonResourceAttributes");
    if (resource.isObject() == path.isObject()) {
      throw new IllegalArgumentException(
          "spec.resourceAttributes: Invalid value: exactly one of nonResourceAttributes or"
              + " resourceAttributes must be specified");
    }
    RequestAttributes asked =
        resource.isObject()
            ? RequestAttributes.resource(
                user,
                resource.path("verb").asText(""),
                resource.path("namespace").asText(""),
                resource.path("group").asText(""),
                resource.path("resource").asText(""),
                resource.path("subresource").asText(""),
                resource.path("name").asText(""))
            : RequestAttributes.nonResource(
                user, path.path("verb").asText(""), path.path("path").asText(""));
    Optional<String> because = policy.allowedBecause(asked);
    ObjectNode status = Json.object();
    status.put("allowed", because.isPresent());
    because.ifPresent(reason -> status.put("reason", reason));
    return status;
  }

  private static ObjectNode rulesStatus(RbacPolicy policy, UserInfo user, JsonNode spec) {
    ObjectNode status = Json.object();
    ArrayNode resourceRules = status.putArray("resourceRules");
    ArrayNode nonResourceRules = status.putArray("nonResourceRules");
    for (PolicyRule rule : policy.rulesFor(user, spec.path("namespace").asText(""))) {
      if (rule.isResourceRule()) {
        resourceRules.add(rule.toResourceJson());
      }
      if (rule.isNonResourceRule()) {
        nonResourceRules.add(rule.toNonResourceJson());
      }
    }
    status.put("incomplete", false);
    return status;
  }
}
