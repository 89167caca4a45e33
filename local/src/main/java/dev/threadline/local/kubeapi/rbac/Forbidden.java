package dev.threadline.local.kubeapi.rbac;

/** kube-apiserver's words for a request its authorizer refused ({@code forbiddenMessage}). */
public final class Forbidden {
  private Forbidden() {}

  /**
   * The Status message: {@code <resource.group> "<name>" is forbidden: User "<u>" cannot <verb>
   * resource "<resource>" in API group "<g>" in the namespace "<ns>"} (or {@code at the cluster
   * scope}); for a path, {@code forbidden: User "<u>" cannot <verb> path "<path>"}.
   */
  public static String message(RequestAttributes request) {
    String user = request.user().name();
    if (!request.resourceRequest()) {
      return "forbidden: User \""
          + user
          + "\" cannot "
          + request.verb()
          + " path \""
          + request.path()
          + "\"";
    }
    String qualified =
        request.apiGroup().isEmpty()
            ? request.resource()
            : request.resource() + "." + request.apiGroup();
    String subject =
        request.name().isEmpty() ? qualified : qualified + " \"" + request.name() + "\"";
    return subject
        + " is forbidden: User \""
        + user
        + "\" cannot "
        + request.verb()
        + " resource \""
        + request.combinedResource()
        + "\" in API group \""
        + request.apiGroup()
        + "\""
        + (request.namespace().isEmpty()
            ? " at the cluster scope"
            : " in the namespace \"" + request.namespace() + "\"");
  }
}
