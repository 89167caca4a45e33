package dev.threadline.core.containers;

/**
 * Names shared by the operator (which makes a container's objects) and the api-server (which reads
 * its access token and writes its MCP bearer tokens). All derive from the Container's name.
 */
public final class ContainerObjects {
  /** Label on a container's Pod, Secrets and claim: the Container's name. */
  public static final String CONTAINER_LABEL = "threadline.dev/container";

  /** Key of the access Secret: the token the api-server sends and the runner checks. */
  public static final String TOKEN_KEY = "token";

  /** Header that carries the access token from the api-server to the runner's file API. */
  public static final String TOKEN_HEADER = "X-Threadline-Token";

  private ContainerObjects() {}

  /** The Pod: named as its Container (one Container, at most one Pod). */
  public static String podName(String containerName) {
    return containerName;
  }

  /** The Secret with the file API's access token, made by the operator. */
  public static String accessSecretName(String containerName) {
    return containerName + "-access";
  }

  /** The Secret with the MCP servers' bearer tokens, written by the api-server. */
  public static String valuesSecretName(String containerName) {
    return containerName + "-values";
  }

  /** A persistent container's workspace claim. */
  public static String workspaceClaimName(String containerName) {
    return containerName + "-workspace";
  }

  /** The NetworkPolicy that lets only the api-server reach the file API, made by the operator. */
  public static String networkPolicyName(String containerName) {
    return containerName;
  }
}
