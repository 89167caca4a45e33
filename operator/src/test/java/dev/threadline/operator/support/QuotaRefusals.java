package dev.threadline.operator.support;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** A namespace whose ResourceQuota is full, as the API server answers a Pod's creation there. */
public final class QuotaRefusals {
  private QuotaRefusals() {}

  /**
   * The next {@code times} Pod creations in {@code namespace} are refused with the quota's 403.
   *
   * @param pod the name the refusal quotes
   */
  public static void refusePods(
      KubernetesMockServer server, String namespace, String pod, int times) {
    server
        .expect()
        .post()
        .withPath("/api/v1/namespaces/" + namespace + "/pods")
        .andReturn(
            403,
            new StatusBuilder()
                .withStatus("Failure")
                .withReason("Forbidden")
                .withCode(403)
                .withMessage(refusal(pod))
                .build())
        .times(times);
  }

  /** The API server's words for a Pod the quota has no room for. */
  public static String refusal(String pod) {
    return "pods \""
        + pod
        + "\" is forbidden: exceeded quota: agents, requested: pods=1, used: pods=4,"
        + " limited: pods=4";
  }
}
