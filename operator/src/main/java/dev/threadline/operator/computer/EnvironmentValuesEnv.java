package dev.threadline.operator.computer;

import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.EnvironmentSecret;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentVariable;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.environment.ValueSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An Environment's variables, secrets and MCP bearer tokens as the agent Pod's environment: each a
 * {@code secretKeyRef} to where the Environment keeps its value (its {@code <name>-vars} Secret),
 * so no value passes through the operator, run.json or the Pod spec. References are optional: a
 * value not (yet) stored leaves its variable unset rather than keeping the Pod from starting.
 */
public final class EnvironmentValuesEnv {
  private EnvironmentValuesEnv() {}

  public static List<EnvVar> of(EnvironmentSpec spec) {
    List<EnvVar> env = new ArrayList<>();
    if (spec == null) {
      return env;
    }
    for (EnvironmentVariable variable :
        Objects.requireNonNullElse(
            spec.getEnvironmentVariables(), List.<EnvironmentVariable>of())) {
      reference(variable.getKey(), variable.getValueFrom()).ifPresent(env::add);
    }
    for (EnvironmentSecret secret :
        Objects.requireNonNullElse(spec.getSecrets(), List.<EnvironmentSecret>of())) {
      reference(secret.getName(), secret.getValueFrom()).ifPresent(env::add);
    }
    List<McpServer> servers = mcpServers(spec);
    for (int i = 0; i < servers.size(); i++) {
      reference(bearerTokenVariable(i), servers.get(i).getBearerTokenFrom()).ifPresent(env::add);
    }
    return env;
  }

  /** The servers the runner is told about, in run.json's order. */
  static List<McpServer> mcpServers(EnvironmentSpec spec) {
    return spec == null
        ? List.of()
        : Objects.requireNonNullElse(spec.getMcpServers(), List.<McpServer>of());
  }

  /**
   * The variable that carries the bearer token of the i-th MCP server (the runner hides it from
   * commands).
   */
  static String bearerTokenVariable(int index) {
    return "THREADLINE_MCP_TOKEN_" + index;
  }

  private static java.util.Optional<EnvVar> reference(String name, ValueSource source) {
    SecretKeyReference ref = source == null ? null : source.getSecretKeyRef();
    if (name == null || ref == null || ref.getName() == null || ref.getKey() == null) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        new EnvVarBuilder()
            .withName(name)
            .withNewValueFrom()
            .withNewSecretKeyRef()
            .withName(ref.getName())
            .withKey(ref.getKey())
            .withOptional(true)
            .endSecretKeyRef()
            .endValueFrom()
            .build());
  }
}
