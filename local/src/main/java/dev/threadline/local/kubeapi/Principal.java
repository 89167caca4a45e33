package dev.threadline.local.kubeapi;

import java.util.Set;

/** Who a request comes from, and what that one may do. */
sealed interface Principal {
  /**
   * Whether this principal may make the request.
   *
   * @param path the resource path, or null for a non-resource path (discovery, OpenAPI, version)
   * @param verb get, list, watch, create, update, patch or delete
   */
  boolean allows(ApiPath path, String verb);

  /** The local mode itself, its clients and kubectl: everything. */
  record Administrator() implements Principal {
    @Override
    public boolean allows(ApiPath path, String verb) {
      return true;
    }
  }

  /**
   * A Pod's service account (a schedule's trigger): read Schedules, read and create Threads and
   * Runs, in its own namespace only, as the trigger's ClusterRole grants on a cluster (listing
   * threads is how a firing counts them against the user's thread limit).
   */
  record ServiceAccount(String namespace, String name) implements Principal {
    private static final Set<String> READ = Set.of("get", "list", "watch");
    private static final Set<String> CREATE = Set.of("get", "list", "watch", "create");

    @Override
    public boolean allows(ApiPath path, String verb) {
      if (path == null) {
        return verb.equals("get");
      }
      if (!namespace.equals(path.namespace()) || !path.group().equals("threadline.dev")) {
        return false;
      }
      return switch (path.resource()) {
        case "schedules" -> READ.contains(verb);
        case "threads", "runs" -> path.subresource() == null && CREATE.contains(verb);
        default -> false;
      };
    }

    String username() {
      return "system:serviceaccount:" + namespace + ":" + name;
    }
  }
}
