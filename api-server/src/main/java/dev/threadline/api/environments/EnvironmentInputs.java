package dev.threadline.api.environments;

import dev.threadline.api.common.McpServerChecks;
import dev.threadline.api.environments.EnvironmentRequests.DocumentInput;
import dev.threadline.api.environments.EnvironmentRequests.McpServerInput;
import dev.threadline.api.environments.EnvironmentRequests.PackagesInput;
import dev.threadline.api.environments.EnvironmentRequests.SecretInput;
import dev.threadline.api.environments.EnvironmentRequests.SetupScriptInput;
import dev.threadline.api.environments.EnvironmentRequests.VariableInput;
import dev.threadline.api.errors.ApiException;
import dev.threadline.core.environment.DockerfileValidator;
import dev.threadline.core.environment.FieldError;
import dev.threadline.core.environment.ImageReferences;
import dev.threadline.core.environment.PackageNames;
import dev.threadline.core.environment.Packages;
import dev.threadline.core.environment.RuntimeCatalog;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.EnvironmentDocument;
import dev.threadline.crds.environment.EnvironmentPackages;
import dev.threadline.crds.environment.EnvironmentSecret;
import dev.threadline.crds.environment.EnvironmentSetupScript;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.EnvironmentVariable;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.environment.ValueSource;
import dev.threadline.crds.environment.WarmPool;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Checks request fields against the same rules as the CRD's schema (and the meaning the schema
 * cannot check: runtimes, package names, Dockerfile syntax, URLs), so that bad input is a 400
 * naming the field, and converts them to spec values. Sensitive values go to {@link SecretValues},
 * never into the spec.
 */
final class EnvironmentInputs {
  static final int MAX_NAME = 200;
  static final int MAX_DESCRIPTION = 2000;
  static final int MAX_EXTENSIONS = 65536;
  static final int MAX_VALUE = 65536;
  static final int MAX_TEXT = 65536;
  private static final Pattern VARIABLE_NAME = Pattern.compile(EnvironmentValues.NAME_PATTERN);

  private EnvironmentInputs() {}

  static String name(String value) {
    if (value == null) {
      throw ApiException.badRequest("name", "is required");
    }
    String stripped = value.strip();
    if (stripped.isEmpty()) {
      throw ApiException.badRequest("name", "must not be blank");
    }
    return bounded("name", stripped, MAX_NAME);
  }

  /** Empty means none. */
  static String description(String value) {
    return value == null || value.isBlank() ? null : bounded("description", value, MAX_DESCRIPTION);
  }

  /** {@code warmPool.size}: a whole number from 0 to {@link WarmPool#MAX_SIZE}. */
  static WarmPool warmPool(EnvironmentRequests.WarmPoolInput input) {
    if (input == null) {
      return null;
    }
    if (!(input.size() instanceof Integer size) || size < 0 || size > WarmPool.MAX_SIZE) {
      throw ApiException.badRequest(
          "warmPool.size", "must be a whole number from 0 to " + WarmPool.MAX_SIZE);
    }
    return new WarmPool(size);
  }

  /** Empty means the service's own base image. */
  static String baseImage(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String image = value.strip();
    ImageReferences.checkBaseImage(image)
        .ifPresent(problem -> {
          throw ApiException.badRequest("baseImage " + problem);
        });
    return image;
  }

  static Map<String, String> runtimes(Map<String, String> runtimes) {
    firstError(RuntimeCatalog.validate(runtimes));
    return new LinkedHashMap<>(new TreeMap<>(runtimes));
  }

  static EnvironmentPackages packages(PackagesInput input) {
    Packages packages = new Packages(input.system(), input.python(), input.node());
    firstError(PackageNames.validate(packages));
    return toSpec(packages);
  }

  static EnvironmentPackages toSpec(Packages packages) {
    EnvironmentPackages spec = new EnvironmentPackages();
    spec.setSystem(new ArrayList<>(packages.system()));
    spec.setPython(new ArrayList<>(packages.python()));
    spec.setNode(new ArrayList<>(packages.node()));
    return spec;
  }

  static Packages fromSpec(EnvironmentPackages packages) {
    return packages == null
        ? Packages.empty()
        : new Packages(packages.getSystem(), packages.getPython(), packages.getNode());
  }

  /** Valid extensions, or a 400 listing the errors; empty means none. */
  static String dockerfileExtensions(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    bounded("dockerfileExtensions", value, MAX_EXTENSIONS);
    var result = DockerfileValidator.validate(value);
    if (!result.valid()) {
      throw ApiException.badRequest(
          "dockerfileExtensions is not valid: " + String.join("; ", result.warnings()));
    }
    return value;
  }

  static List<EnvironmentSetupScript> setupScripts(List<SetupScriptInput> inputs) {
    limit("setupScripts", inputs, EnvironmentSpec.MAX_SETUP_SCRIPTS);
    List<EnvironmentSetupScript> scripts = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      String field = "setupScripts[" + i + "]";
      SetupScriptInput input = required(field, inputs.get(i));
      String name = requiredText(field + ".name", input.name(), MAX_NAME);
      if (input.script() == null || input.script().isBlank()) {
        throw ApiException.badRequest(field + ".script", "is required");
      }
      scripts.add(
          new EnvironmentSetupScript(name, bounded(field + ".script", input.script(), MAX_TEXT)));
    }
    return scripts;
  }

  static List<EnvironmentDocument> documentation(List<DocumentInput> inputs) {
    limit("documentation", inputs, EnvironmentSpec.MAX_DOCUMENTS);
    List<EnvironmentDocument> documents = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      String field = "documentation[" + i + "]";
      DocumentInput input = required(field, inputs.get(i));
      String title = requiredText(field + ".title", input.title(), MAX_NAME);
      boolean hasContent = input.content() != null && !input.content().isBlank();
      boolean hasUrl = input.url() != null && !input.url().isBlank();
      if (hasContent == hasUrl) {
        throw ApiException.badRequest(field, "needs either content or url (not both)");
      }
      documents.add(
          hasContent
              ? new EnvironmentDocument(
                  title, bounded(field + ".content", input.content(), MAX_TEXT), null)
              : new EnvironmentDocument(title, null, httpUrl(field + ".url", input.url())));
    }
    return documents;
  }

  /**
   * Variables by key; an item without a value (or with the mask) keeps the stored value of the
   * existing variable of that key, including a GitOps user's {@code valueFrom}.
   */
  static List<EnvironmentVariable> variables(
      List<VariableInput> inputs, List<EnvironmentVariable> existing, SecretValues values) {
    limit("environmentVariables", inputs, EnvironmentSpec.MAX_VARIABLES);
    Set<String> seen = new HashSet<>();
    List<EnvironmentVariable> variables = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      String field = "environmentVariables[" + i + "]";
      VariableInput input = required(field, inputs.get(i));
      String key = variableName(field + ".key", input.key());
      if (!seen.add(key)) {
        throw ApiException.badRequest(field + ".key", "\"" + key + "\" is given twice");
      }
      Optional<EnvironmentVariable> previous =
          existing.stream().filter(v -> key.equals(v.getKey())).findFirst();
      if (isKept(input.value())) {
        EnvironmentVariable kept =
            previous.orElseThrow(() -> ApiException.badRequest(field + ".value", "is required"));
        if (kept.getValueFrom() == null) {
          values.carry(EnvironmentValues.variableKey(key));
        }
        variables.add(kept);
      } else {
        values.set(
            EnvironmentValues.variableKey(key),
            bounded(field + ".value", input.value(), MAX_VALUE));
        variables.add(new EnvironmentVariable(key));
      }
    }
    return variables;
  }

  /** Secrets by name, kept like variables. */
  static List<EnvironmentSecret> secrets(
      List<SecretInput> inputs, List<EnvironmentSecret> existing, SecretValues values) {
    limit("secrets", inputs, EnvironmentSpec.MAX_SECRETS);
    Set<String> seen = new HashSet<>();
    List<EnvironmentSecret> secrets = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      String field = "secrets[" + i + "]";
      SecretInput input = required(field, inputs.get(i));
      String name = variableName(field + ".name", input.name());
      if (!seen.add(name)) {
        throw ApiException.badRequest(field + ".name", "\"" + name + "\" is given twice");
      }
      String description =
          input.description() == null || input.description().isBlank()
              ? null
              : bounded(field + ".description", input.description(), 1000);
      Optional<EnvironmentSecret> previous =
          existing.stream().filter(s -> name.equals(s.getName())).findFirst();
      EnvironmentSecret secret = new EnvironmentSecret(name, description);
      if (isKept(input.value())) {
        EnvironmentSecret kept =
            previous.orElseThrow(() -> ApiException.badRequest(field + ".value", "is required"));
        secret.setValueFrom(kept.getValueFrom());
        if (kept.getValueFrom() == null) {
          values.carry(EnvironmentValues.secretKey(name));
        }
      } else {
        values.set(
            EnvironmentValues.secretKey(name), bounded(field + ".value", input.value(), MAX_VALUE));
      }
      secrets.add(secret);
    }
    return secrets;
  }

  /**
   * MCP servers, checked as the contract's item (stdio needs a command, http a valid http(s) url;
   * names unique); a bearer token goes to the Secret and the spec keeps a reference to it. An
   * absent token (or the mask) keeps the server's stored one; an empty string removes it.
   */
  static List<McpServer> mcpServers(
      List<McpServerInput> inputs,
      List<McpServer> existing,
      String secretName,
      SecretValues values) {
    limit("mcpServers", inputs, EnvironmentSpec.MAX_MCP_SERVERS);
    Set<String> seen = new HashSet<>();
    List<McpServer> servers = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      String field = "mcpServers[" + i + "]";
      McpServerInput input = required(field, inputs.get(i));
      McpServer server = McpServerChecks.ofType(field, input.type());
      String name = requiredText(field + ".name", input.name(), 63);
      McpServerChecks.checkName(field, name);
      if (!seen.add(name)) {
        throw ApiException.badRequest(field + ".name", "\"" + name + "\" is given twice");
      }
      server.setName(name);
      McpServerChecks.setEnabledAndTimeouts(
          field, server, input.enabled(), input.startupTimeoutSec(), input.toolTimeoutSec());
      if (McpServer.STDIO.equals(input.type())) {
        server.setCommand(requiredText(field + ".command", input.command(), 1024));
        server.setArgs(McpServerChecks.arguments(field, input.args()));
        // An empty bearerToken means "remove the stored token", so a stdio server may send one.
        if (input.url() != null
            || (input.bearerToken() != null && !input.bearerToken().isEmpty())) {
          throw McpServerChecks.stdioGivenUrlOrToken(field);
        }
      } else {
        if (input.url() == null) {
          throw ApiException.badRequest(field + ".url", "is required for an http server");
        }
        server.setUrl(httpUrl(field + ".url", input.url()));
        McpServerChecks.refuseCommand(field, input.command(), input.args());
        server.setArgs(null);
        server.setBearerTokenFrom(
            bearerToken(field, name, input.bearerToken(), existing, secretName, values));
      }
      servers.add(server);
    }
    return servers;
  }

  private static ValueSource bearerToken(
      String field,
      String name,
      String token,
      List<McpServer> existing,
      String secretName,
      SecretValues values) {
    String key = EnvironmentValues.bearerTokenKey(name);
    if (isKept(token)) {
      Optional<ValueSource> previous =
          existing.stream()
              .filter(
                  server -> name.equals(server.getName()) && server.getBearerTokenFrom() != null)
              .map(McpServer::getBearerTokenFrom)
              .findFirst();
      previous
          .filter(source -> isOwn(source, secretName, key))
          .ifPresent(source -> values.carry(key));
      return previous.orElse(null);
    }
    if (token.isEmpty()) {
      return null;
    }
    values.set(key, bounded(field + ".bearerToken", token, MAX_VALUE));
    return new ValueSource(new SecretKeyReference(secretName, key));
  }

  private static boolean isOwn(ValueSource source, String secretName, String key) {
    SecretKeyReference ref = source.getSecretKeyRef();
    return ref != null && secretName.equals(ref.getName()) && key.equals(ref.getKey());
  }

  /** Absent, or the mask a client read back: keep what is stored. */
  private static boolean isKept(String value) {
    return value == null || EnvironmentValues.MASK.equals(value);
  }

  static String httpUrl(String field, String value) {
    String url = value.strip();
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || uri.getHost() == null
          || url.length() > 2048) {
        throw ApiException.badRequest(field, "must be an http:// or https:// URL with a host");
      }
      return url;
    } catch (URISyntaxException e) {
      throw ApiException.badRequest(field, "must be an http:// or https:// URL with a host");
    }
  }

  private static String variableName(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw ApiException.badRequest(field, "is required");
    }
    if (value.length() > 256 || !VARIABLE_NAME.matcher(value).matches()) {
      throw ApiException.badRequest(
          field, "must be a variable name: letters, digits and '_', not starting with a digit");
    }
    return value;
  }

  private static String requiredText(String field, String value, int max) {
    if (value == null || value.isBlank()) {
      throw ApiException.badRequest(field, "is required");
    }
    return bounded(field, value.strip(), max);
  }

  private static <T> T required(String field, T item) {
    if (item == null) {
      throw ApiException.badRequest(field, "must be an object");
    }
    return item;
  }

  private static void limit(String field, List<?> items, int max) {
    if (items.size() > max) {
      throw ApiException.badRequest(field, "may hold at most " + max + " items");
    }
  }

  private static String bounded(String field, String value, int max) {
    if (value.length() > max) {
      throw ApiException.badRequest(field, "must be at most " + max + " characters");
    }
    return value;
  }

  /** The first problem as a 400 that names its field. */
  static void firstError(List<FieldError> errors) {
    if (!errors.isEmpty()) {
      FieldError first = errors.getFirst();
      throw ApiException.badRequest(first.field() + ": " + first.message());
    }
  }
}
