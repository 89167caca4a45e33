package dev.threadline.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.StreamSupport;

/** The chart rendered by {@code helm template} and parsed into one JSON tree per manifest. */
final class RenderedChart {

  static final String RELEASE = "threadline";
  static final String NAMESPACE = "threadline-system";

  /** The oldest Kubernetes the chart supports (Chart.yaml kubeVersion). */
  static final String KUBE_VERSION = "1.27.0";

  private static final YAMLMapper YAML = new YAMLMapper();

  private final List<JsonNode> manifests;

  private RenderedChart(List<JsonNode> manifests) {
    this.manifests = manifests;
  }

  /** {@code helm template} with {@code values-history-database.yaml}: a history database set. */
  static TemplateCommand template() {
    return templateWithoutDatabase().withValuesFile(databaseValues());
  }

  /** {@code helm template} with the chart's values alone, which name no history database. */
  static TemplateCommand templateWithoutDatabase() {
    return new Helm(ChartPaths.chart())
        .template()
        .withName(RELEASE)
        .withNamespace(NAMESPACE)
        .withKubeVersion(KUBE_VERSION);
  }

  /** The least values a cluster needs: an existing PostgreSQL database as the history store. */
  static Path databaseValues() {
    return resource("/values-history-database.yaml");
  }

  static Path resource(String name) {
    try {
      return Path.of(RenderedChart.class.getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("the test resources hold " + name, e);
    }
  }

  static RenderedChart render(UnaryOperator<TemplateCommand> options) {
    return parse(options.apply(template()).call());
  }

  static RenderedChart withDefaults() {
    return render(t -> t);
  }

  /**
   * The chart with {@code values-non-default.yaml}: every optional part on (fullnameOverride tl).
   */
  static RenderedChart withNonDefaultValues() {
    return withValuesFile(resource("/values-non-default.yaml"));
  }

  static RenderedChart withValuesFile(Path values) {
    return render(t -> t.withValuesFile(values));
  }

  static RenderedChart parse(String yaml) {
    try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      List<JsonNode> manifests = new ArrayList<>();
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc != null && doc.isObject() && doc.has("kind")) {
          manifests.add(doc);
        }
      }
      return new RenderedChart(manifests);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<JsonNode> all() {
    return manifests;
  }

  List<JsonNode> ofKind(String kind) {
    return manifests.stream().filter(m -> kind.equals(m.path("kind").asText())).toList();
  }

  Optional<JsonNode> find(String kind, String name) {
    return ofKind(kind).stream()
        .filter(m -> name.equals(m.at("/metadata/name").asText()))
        .findFirst();
  }

  JsonNode get(String kind, String name) {
    return find(kind, name)
        .orElseThrow(
            () -> new AssertionError("no " + kind + " named " + name + " in the rendered chart"));
  }

  /** The first container of a Deployment's Pod template. */
  static JsonNode container(JsonNode deployment) {
    return deployment.at("/spec/template/spec/containers/0");
  }

  /** A container's env as name → EnvVar. */
  static Map<String, JsonNode> env(JsonNode container) {
    Map<String, JsonNode> env = new LinkedHashMap<>();
    container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
    return env;
  }

  /** Where a rule applies: the whole cluster ({@code null}) or one namespace. */
  record Grant(String namespace, JsonNode rule) {
    boolean clusterWide() {
      return namespace == null;
    }
  }

  /**
   * Every rule granted to a ServiceAccount of the release namespace through the rendered
   * (Cluster)RoleBindings, with the scope in which it applies.
   */
  List<Grant> grantsTo(String serviceAccount) {
    List<Grant> grants = new ArrayList<>();
    for (JsonNode binding : manifests) {
      String kind = binding.path("kind").asText();
      if (!kind.equals("ClusterRoleBinding") && !kind.equals("RoleBinding")) {
        continue;
      }
      boolean boundToAccount =
          StreamSupport.stream(binding.path("subjects").spliterator(), false)
              .anyMatch(s ->
                  s.path("kind").asText().equals("ServiceAccount")
                      && s.path("name").asText().equals(serviceAccount)
                      && s.path("namespace").asText().equals(NAMESPACE));
      if (!boundToAccount) {
        continue;
      }
      String bindingNamespace =
          kind.equals("RoleBinding") ? binding.at("/metadata/namespace").asText() : null;
      JsonNode roleRef = binding.path("roleRef");
      String roleKind = roleRef.path("kind").asText();
      JsonNode role =
          roleKind.equals("Role")
              ? ofKind("Role").stream()
                  .filter(
                      r -> r.at("/metadata/name").asText().equals(roleRef.path("name").asText()))
                  .filter(r -> r.at("/metadata/namespace").asText().equals(bindingNamespace))
                  .findFirst()
                  .orElseThrow(() -> new AssertionError("binding to a missing Role: " + binding))
              : get("ClusterRole", roleRef.path("name").asText());
      role.path("rules").forEach(rule -> grants.add(new Grant(bindingNamespace, rule)));
    }
    return grants;
  }

  /** Scopes ({@code null} = cluster-wide) in which the account may use verb on group/resource. */
  List<String> scopesAllowing(
      String serviceAccount, String apiGroup, String resource, String verb) {
    return grantsTo(serviceAccount).stream()
        .filter(g -> contains(g.rule().path("apiGroups"), apiGroup))
        .filter(g -> contains(g.rule().path("resources"), resource))
        .filter(g -> contains(g.rule().path("verbs"), verb))
        .map(Grant::namespace)
        .distinct()
        .toList();
  }

  static boolean contains(JsonNode array, String value) {
    return StreamSupport.stream(array.spliterator(), false).anyMatch(n -> n.asText().equals(value));
  }

  static List<String> texts(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
  }
}
