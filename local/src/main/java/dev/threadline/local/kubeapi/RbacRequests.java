package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.rbac.AccessReviews;
import dev.threadline.local.kubeapi.rbac.EscalationCheck;
import dev.threadline.local.kubeapi.rbac.PolicyCache;
import dev.threadline.local.kubeapi.rbac.RbacPolicy;
import dev.threadline.local.kubeapi.rbac.UserInfo;
import dev.threadline.local.kubeapi.store.ObjectKey;
import java.util.Optional;

/**
 * The requests the RBAC policy answers or guards beyond authorisation: the self-reviews ({@code
 * kubectl auth can-i}), and writes of roles and bindings, refused when they would grant what the
 * writer does not hold.
 */
final class RbacRequests {
  private final PolicyCache policies;

  RbacRequests(PolicyCache policies) {
    this.policies = policies;
  }

  /** A SelfSubjectAccessReview's or SelfSubjectRulesReview's answer; empty for any other path. */
  Optional<ApiResponse> review(ApiRequest request, UserInfo user) {
    Optional<ApiPath> parsed = ApiPath.parse(request.path());
    if (parsed.isEmpty()
        || !AccessReviews.isReview(parsed.get().group(), parsed.get().resource())) {
      return Optional.empty();
    }
    ApiPath path = parsed.get();
    if (!path.version().equals("v1") || path.namespace() != null || path.name() != null) {
      return Optional.of(KubeStatus.pathNotFound());
    }
    if (!request.method().equals("POST")) {
      return Optional.of(KubeStatus.methodNotAllowed());
    }
    JsonNode body;
    try {
      body = Json.parse(request.body() == null ? new byte[0] : request.body());
    } catch (IllegalArgumentException e) {
      return Optional.of(KubeStatus.badRequest(e.getMessage()));
    }
    try {
      ObjectNode answer = AccessReviews.answer(policies.policy(), user, path.resource(), body);
      return Optional.of(ApiResponse.json(201, answer));
    } catch (IllegalArgumentException e) {
      return Optional.of(KubeStatus.failure(422, "Invalid", e.getMessage()));
    }
  }

  /**
   * The 403 of a role or binding write that would grant what its writer does not hold; empty when
   * it may go on. A patch is judged by the object it names now with the patch's own {@code rules}
   * or {@code roleRef} when it sets them.
   */
  Optional<ApiResponse> escalation(ApiRequest request, ApiPath path, UserInfo user) {
    if (!path.group().equals("rbac.authorization.k8s.io")
        || path.subresource() != null
        || !(request.method().equals("POST")
            || request.method().equals("PUT")
            || request.method().equals("PATCH"))) {
      return Optional.empty();
    }
    JsonNode written;
    try {
      written = request.hasBody() ? Json.parse(request.body()) : Json.object();
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // the write itself answers 400
    }
    if (!(written instanceof ObjectNode object)) {
      return Optional.empty();
    }
    RbacPolicy policy = policies.policy();
    ObjectNode judged = object;
    if (request.method().equals("PATCH")) {
      judged =
          policies
              .stored(new ObjectKey(path.qualifiedResource(), path.namespace(), path.name()))
              .filter(ObjectNode.class::isInstance)
              .map(ObjectNode.class::cast)
              .map(ObjectNode::deepCopy)
              .orElseGet(Json::object);
      for (String field : new String[] {"rules", "roleRef"}) {
        if (object.has(field)) {
          judged.set(field, object.get(field));
        }
      }
    }
    if (!judged.path("metadata").has("name") && path.name() != null) {
      Json.metadata(judged).put("name", path.name());
    }
    return EscalationCheck.refusal(policy, user, path.resource(), path.namespace(), judged)
        .map(message -> KubeStatus.failure(403, "Forbidden", message));
  }
}
