package dev.threadline.local.kubeapi.rbac;

/**
 * What an authorizer decides on, as kube-apiserver's request info gives it: a resource request
 * (verb, namespace, API group, resource, subresource, name) or a non-resource one (verb, path).
 * Empty strings, never null, for what a request does not name.
 */
public record RequestAttributes(
    UserInfo user,
    String verb,
    boolean resourceRequest,
    String namespace,
    String apiGroup,
    String resource,
    String subresource,
    String name,
    String path) {

  public RequestAttributes {
    namespace = orEmpty(namespace);
    apiGroup = orEmpty(apiGroup);
    resource = orEmpty(resource);
    subresource = orEmpty(subresource);
    name = orEmpty(name);
    path = orEmpty(path);
  }

  public static RequestAttributes resource(
      UserInfo user,
      String verb,
      String namespace,
      String apiGroup,
      String resource,
      String subresource,
      String name) {
    return new RequestAttributes(
        user, verb, true, namespace, apiGroup, resource, subresource, name, "");
  }

  public static RequestAttributes nonResource(UserInfo user, String verb, String path) {
    return new RequestAttributes(user, verb, false, "", "", "", "", "", path);
  }

  /** {@code resource/subresource}, as rules name a subresource. */
  String combinedResource() {
    return subresource.isEmpty() ? resource : resource + "/" + subresource;
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }
}
