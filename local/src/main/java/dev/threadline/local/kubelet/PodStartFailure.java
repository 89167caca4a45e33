package dev.threadline.local.kubelet;

/**
 * Why a Pod cannot start here, as the Pod's status will say it: a Kubernetes-style reason and a
 * message for a person.
 */
final class PodStartFailure extends Exception {
  private final String reason;

  PodStartFailure(String reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  String reason() {
    return reason;
  }
}
