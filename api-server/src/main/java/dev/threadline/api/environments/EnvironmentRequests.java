package dev.threadline.api.environments;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.threadline.api.webhooks.WebhookInput;
import java.util.List;
import java.util.Map;

/** Request bodies of the environment endpoints. Unknown fields are ignored. */
final class EnvironmentRequests {
  private EnvironmentRequests() {}

  /**
   * {@code POST /environments}: {@code name} required. Beyond the contract's optional fields, every
   * other field of the environment object can be given too (baseImage, secrets, setupScripts,
   * documentation, internetAccess).
   */
  record Create(
      String name,
      String description,
      String baseImage,
      Map<String, String> runtimes,
      PackagesInput packages,
      String dockerfileExtensions,
      List<VariableInput> environmentVariables,
      List<SecretInput> secrets,
      List<SetupScriptInput> setupScripts,
      List<McpServerInput> mcpServers,
      List<DocumentInput> documentation,
      Boolean internetAccess,
      @JsonProperty("isDefault") Boolean isDefault,
      List<WebhookInput> webhooks,
      WarmPoolInput warmPool)
      implements SpecFields {}

  /**
   * {@code PATCH /environments/:id}: every field optional; an absent or null field stays as it is.
   * A list given replaces the list. In {@code environmentVariables}, {@code secrets} and {@code
   * mcpServers}, an item whose value (or bearerToken) is absent or the mask {@code "****"} keeps
   * the stored value of the same key, so a client can send back what it read. {@code isActive:
   * true} restores a soft-deleted environment. {@code webhooks} given replaces the whole list
   * ({@code []} removes them all); an item without {@code secret} keeps the stored secret of the
   * same URL.
   */
  record Update(
      String name,
      String description,
      String baseImage,
      Map<String, String> runtimes,
      PackagesInput packages,
      String dockerfileExtensions,
      List<VariableInput> environmentVariables,
      List<SecretInput> secrets,
      List<SetupScriptInput> setupScripts,
      List<McpServerInput> mcpServers,
      List<DocumentInput> documentation,
      Boolean internetAccess,
      @JsonProperty("isDefault") Boolean isDefault,
      @JsonProperty("isActive") Boolean isActive,
      List<WebhookInput> webhooks,
      WarmPoolInput warmPool)
      implements SpecFields {}

  /** The optional spec fields that create and update both carry, read by one validation. */
  interface SpecFields {
    String description();

    String baseImage();

    Map<String, String> runtimes();

    PackagesInput packages();

    String dockerfileExtensions();

    List<VariableInput> environmentVariables();

    List<SecretInput> secrets();

    List<SetupScriptInput> setupScripts();

    List<McpServerInput> mcpServers();

    List<DocumentInput> documentation();

    Boolean internetAccess();

    WarmPoolInput warmPool();
  }

  /**
   * {@code warmPool: {size}} (beyond the contract; docs/warm-pools.md): ready sandboxes kept for
   * the environment's runs; 0 removes the pool. Read loosely typed, so a mistyped size still gets a
   * 400 naming {@code warmPool.size}.
   */
  record WarmPoolInput(Object size) {}

  record PackagesInput(List<String> system, List<String> python, List<String> node) {}

  record VariableInput(String key, String value) {}

  record SecretInput(String name, String description, String value) {}

  record SetupScriptInput(String name, String script) {}

  record McpServerInput(
      String type,
      String name,
      String command,
      List<String> args,
      String url,
      String bearerToken,
      Boolean enabled,
      Integer startupTimeoutSec,
      Integer toolTimeoutSec) {}

  record DocumentInput(String title, String content, String url) {}

  /** {@code PUT .../runtimes}. */
  record Runtimes(Map<String, String> runtimes) {}

  /**
   * {@code POST .../packages}. Read loosely typed, so that a missing or mistyped field still gets
   * the contract's exact message ({@code Invalid package type}, {@code packages must be a non-empty
   * array}) rather than a generic type error.
   */
  record InstallPackages(Object type, Object packages) {}

  /** {@code PUT .../dockerfile} and {@code POST .../dockerfile/validate}. */
  record Dockerfile(String dockerfileExtensions) {}
}
