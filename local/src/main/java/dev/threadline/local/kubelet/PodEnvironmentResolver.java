package dev.threadline.local.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The variables a Pod defines for one container, resolved as the kubelet does: {@code envFrom}
 * first, then {@code env} (which wins), values from Secrets, ConfigMaps and the Pod's own fields,
 * and {@code $(VAR)} references expanded. A required reference that cannot be resolved fails the
 * Pod with {@code CreateContainerConfigError}. Values never reach a log.
 */
final class PodEnvironmentResolver {
  static final String CONFIG_ERROR = "CreateContainerConfigError";
  static final String POD_IP = "127.0.0.1";
  private static final Pattern REFERENCE =
      Pattern.compile("\\$\\$|\\$\\(([-._a-zA-Z][-._a-zA-Z0-9]*)\\)");
  private static final Pattern FIELD_MAP_KEY =
      Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

  private final Pod pod;
  private final PodConfigData config;

  PodEnvironmentResolver(Pod pod, PodConfigData config) {
    this.pod = pod;
    this.config = config;
  }

  Map<String, String> resolve(Container container) throws PodStartFailure {
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvFromSource source : list(container.getEnvFrom())) {
      addAll(env, container, source);
    }
    for (EnvVar variable : list(container.getEnv())) {
      if (variable.getValueFrom() != null) {
        resolve(container, variable.getName(), variable.getValueFrom())
            .ifPresent(value -> env.put(variable.getName(), value));
      } else {
        env.put(
            variable.getName(),
            expand(variable.getValue() == null ? "" : variable.getValue(), env));
      }
    }
    return env;
  }

  /**
   * Kubernetes' {@code $(VAR)} expansion: defined references are replaced, others kept, {@code $$}
   * is a literal {@code $}.
   */
  static String expand(String value, Map<String, String> env) {
    Matcher matcher = REFERENCE.matcher(value);
    StringBuilder expanded = new StringBuilder();
    while (matcher.find()) {
      String replacement;
      if (matcher.group().equals("$$")) {
        replacement = "$";
      } else {
        replacement = env.getOrDefault(matcher.group(1), matcher.group());
      }
      matcher.appendReplacement(expanded, Matcher.quoteReplacement(replacement));
    }
    matcher.appendTail(expanded);
    return expanded.toString();
  }

  private void addAll(Map<String, String> env, Container container, EnvFromSource source)
      throws PodStartFailure {
    String prefix = source.getPrefix() == null ? "" : source.getPrefix();
    if (source.getConfigMapRef() != null) {
      String name = source.getConfigMapRef().getName();
      Optional<Map<String, byte[]>> data = config.configMap(name);
      if (data.isEmpty() && !Boolean.TRUE.equals(source.getConfigMapRef().getOptional())) {
        throw missing(container, "configmap \"" + name + "\" not found");
      }
      data.ifPresent(values -> values.forEach((key, value) -> env.put(prefix + key, text(value))));
    }
    if (source.getSecretRef() != null) {
      String name = source.getSecretRef().getName();
      Optional<Map<String, byte[]>> data = config.secret(name);
      if (data.isEmpty() && !Boolean.TRUE.equals(source.getSecretRef().getOptional())) {
        throw missing(container, "secret \"" + name + "\" not found");
      }
      data.ifPresent(values -> values.forEach((key, value) -> env.put(prefix + key, text(value))));
    }
  }

  private Optional<String> resolve(Container container, String variable, EnvVarSource source)
      throws PodStartFailure {
    if (source.getSecretKeyRef() != null) {
      var ref = source.getSecretKeyRef();
      return keyOf(
          container,
          "secret",
          ref.getName(),
          ref.getKey(),
          Boolean.TRUE.equals(ref.getOptional()),
          config.secret(ref.getName()));
    }
    if (source.getConfigMapKeyRef() != null) {
      var ref = source.getConfigMapKeyRef();
      return keyOf(
          container,
          "configmap",
          ref.getName(),
          ref.getKey(),
          Boolean.TRUE.equals(ref.getOptional()),
          config.configMap(ref.getName()));
    }
    if (source.getFieldRef() != null) {
      return Optional.of(field(container, variable, source.getFieldRef().getFieldPath()));
    }
    throw missing(
        container,
        "variable "
            + variable
            + " uses a value source local mode cannot provide"
            + " (supported: value, secretKeyRef, configMapKeyRef, fieldRef)");
  }

  private Optional<String> keyOf(
      Container container,
      String kind,
      String name,
      String key,
      boolean optional,
      Optional<Map<String, byte[]>> data)
      throws PodStartFailure {
    if (data.isEmpty()) {
      if (optional) {
        return Optional.empty();
      }
      throw missing(container, kind + " \"" + name + "\" not found");
    }
    byte[] value = data.get().get(key);
    if (value == null) {
      if (optional) {
        return Optional.empty();
      }
      throw missing(
          container,
          "couldn't find key "
              + key
              + " in "
              + kind
              + " "
              + pod.getMetadata().getNamespace()
              + "/"
              + name);
    }
    return Optional.of(text(value));
  }

  private String field(Container container, String variable, String fieldPath)
      throws PodStartFailure {
    var metadata = pod.getMetadata();
    switch (fieldPath) {
      case "metadata.name":
        return metadata.getName();
      case "metadata.namespace":
        return metadata.getNamespace();
      case "metadata.uid":
        return metadata.getUid();
      case "status.podIP", "status.hostIP":
        return POD_IP;
      case "spec.nodeName":
        return pod.getSpec().getNodeName() == null ? "localhost" : pod.getSpec().getNodeName();
      case "spec.serviceAccountName":
        return pod.getSpec().getServiceAccountName() == null
            ? "default"
            : pod.getSpec().getServiceAccountName();
      default:
        break;
    }
    Matcher mapKey = FIELD_MAP_KEY.matcher(fieldPath);
    if (mapKey.matches()) {
      Map<String, String> values =
          mapKey.group(1).equals("labels") ? metadata.getLabels() : metadata.getAnnotations();
      return values == null ? "" : values.getOrDefault(mapKey.group(2), "");
    }
    throw missing(
        container,
        "variable "
            + variable
            + " refers to field "
            + fieldPath
            + ", which local mode does not provide");
  }

  private static PodStartFailure missing(Container container, String why) {
    return new PodStartFailure(CONFIG_ERROR, "container \"" + container.getName() + "\": " + why);
  }

  private static String text(byte[] value) {
    return new String(value, StandardCharsets.UTF_8);
  }

  private static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : values;
  }
}
