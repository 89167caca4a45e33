package dev.threadline.local.kubeapi.rbac;

import java.util.List;

/**
 * Who a request comes from, as kube-apiserver's authenticators name it: a user name and its groups.
 */
public record UserInfo(String name, List<String> groups) {
  /** The group kube-apiserver lets do anything, before any RBAC rule is read. */
  public static final String MASTERS = "system:masters";

  public static final String AUTHENTICATED = "system:authenticated";
  public static final String SERVICE_ACCOUNTS = "system:serviceaccounts";
  static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

  public UserInfo {
    groups = List.copyOf(groups);
  }

  /** The administrator of the embedded API (the kubeconfig in the data folder). */
  public static UserInfo administrator() {
    return new UserInfo("threadline-admin", List.of(MASTERS, AUTHENTICATED));
  }

  /** A person (or tool) with a token of its own. */
  public static UserInfo user(String name) {
    return new UserInfo(name, List.of(AUTHENTICATED));
  }

  /** A ServiceAccount's token, with the groups the service-account authenticator adds. */
  public static UserInfo serviceAccount(String namespace, String name) {
    return new UserInfo(
        SERVICE_ACCOUNT_PREFIX + namespace + ":" + name,
        List.of(SERVICE_ACCOUNTS, SERVICE_ACCOUNTS + ":" + namespace, AUTHENTICATED));
  }

  boolean privileged() {
    return groups.contains(MASTERS);
  }
}
