package dev.threadline.local.kubeapi;

import java.util.List;

/**
 * The built-in kinds the embedded API serves: the ones Threadline, its kubelet and kubectl use. The
 * store accepts any path, but only these (and stored CRDs) are resources here; everything else is a
 * 404, as on a cluster that lacks the kind.
 */
final class BuiltinResources {
  private BuiltinResources() {}

  private static final List<PrinterColumn> NAME_AGE =
      List.of(PrinterColumn.NAME, PrinterColumn.AGE);

  static final List<ResourceType> ALL =
      List.of(
          core("pods", "pod", "Pod", true, List.of("po"), List.of("all"), true, podColumns()),
          core(
              "namespaces",
              "namespace",
              "Namespace",
              false,
              List.of("ns"),
              List.of(),
              false,
              List.of(
                  PrinterColumn.NAME,
                  PrinterColumn.of("Status", "string", ".status.phase"),
                  PrinterColumn.AGE)),
          core("secrets", "secret", "Secret", true, List.of(), List.of(), false, NAME_AGE),
          core(
              "configmaps",
              "configmap",
              "ConfigMap",
              true,
              List.of("cm"),
              List.of(),
              false,
              NAME_AGE),
          core(
              "services",
              "service",
              "Service",
              true,
              List.of("svc"),
              List.of("all"),
              true,
              NAME_AGE),
          core("events", "event", "Event", true, List.of("ev"), List.of(), false, NAME_AGE),
          core(
              "persistentvolumeclaims",
              "persistentvolumeclaim",
              "PersistentVolumeClaim",
              true,
              List.of("pvc"),
              List.of(),
              true,
              NAME_AGE),
          core(
              "serviceaccounts",
              "serviceaccount",
              "ServiceAccount",
              true,
              List.of("sa"),
              List.of(),
              false,
              NAME_AGE),
          core(
              "endpoints",
              "endpoints",
              "Endpoints",
              true,
              List.of("ep"),
              List.of(),
              false,
              NAME_AGE),
          core("nodes", "node", "Node", false, List.of("no"), List.of(), true, NAME_AGE),
          core(
              "resourcequotas",
              "resourcequota",
              "ResourceQuota",
              true,
              List.of("quota"),
              List.of(),
              true,
              NAME_AGE),
          core(
              "limitranges",
              "limitrange",
              "LimitRange",
              true,
              List.of("limits"),
              List.of(),
              false,
              NAME_AGE),
          type(
              "apps",
              "deployments",
              "deployment",
              "Deployment",
              true,
              List.of("deploy"),
              List.of("all"),
              true),
          type(
              "apps",
              "replicasets",
              "replicaset",
              "ReplicaSet",
              true,
              List.of("rs"),
              List.of("all"),
              true),
          type(
              "apps",
              "statefulsets",
              "statefulset",
              "StatefulSet",
              true,
              List.of("sts"),
              List.of("all"),
              true),
          type("batch", "jobs", "job", "Job", true, List.of(), List.of("all"), true),
          type(
              "batch", "cronjobs", "cronjob", "CronJob", true, List.of("cj"), List.of("all"), true),
          type(
              "networking.k8s.io",
              "networkpolicies",
              "networkpolicy",
              "NetworkPolicy",
              true,
              List.of("netpol"),
              List.of(),
              false),
          type(
              "coordination.k8s.io", "leases", "lease", "Lease", true, List.of(), List.of(), false),
          type(
              "rbac.authorization.k8s.io",
              "roles",
              "role",
              "Role",
              true,
              List.of(),
              List.of(),
              false),
          type(
              "rbac.authorization.k8s.io",
              "rolebindings",
              "rolebinding",
              "RoleBinding",
              true,
              List.of(),
              List.of(),
              false),
          type(
              "rbac.authorization.k8s.io",
              "clusterroles",
              "clusterrole",
              "ClusterRole",
              false,
              List.of(),
              List.of(),
              false),
          type(
              "rbac.authorization.k8s.io",
              "clusterrolebindings",
              "clusterrolebinding",
              "ClusterRoleBinding",
              false,
              List.of(),
              List.of(),
              false),
          type(
              "apiextensions.k8s.io",
              "customresourcedefinitions",
              "customresourcedefinition",
              "CustomResourceDefinition",
              false,
              List.of("crd", "crds"),
              List.of(),
              true));

  private static List<PrinterColumn> podColumns() {
    // Ready, Status and Restarts are computed from the Pod (see TableRenderer), as kubectl's own
    // server-side printer does; their jsonPath is only a label.
    return List.of(
        PrinterColumn.NAME,
        PrinterColumn.of("Ready", "string", "pod:ready"),
        PrinterColumn.of("Status", "string", "pod:status"),
        PrinterColumn.of("Restarts", "string", "pod:restarts"),
        PrinterColumn.AGE);
  }

  private static ResourceType core(
      String plural,
      String singular,
      String kind,
      boolean namespaced,
      List<String> shortNames,
      List<String> categories,
      boolean status,
      List<PrinterColumn> columns) {
    return new ResourceType(
        "",
        "v1",
        plural,
        singular,
        kind,
        namespaced,
        shortNames,
        categories,
        status,
        columns,
        null,
        ValidationRules.NONE,
        null);
  }

  private static ResourceType type(
      String group,
      String plural,
      String singular,
      String kind,
      boolean namespaced,
      List<String> shortNames,
      List<String> categories,
      boolean status) {
    return new ResourceType(
        group,
        "v1",
        plural,
        singular,
        kind,
        namespaced,
        shortNames,
        categories,
        status,
        NAME_AGE,
        null,
        ValidationRules.NONE,
        null);
  }
}
