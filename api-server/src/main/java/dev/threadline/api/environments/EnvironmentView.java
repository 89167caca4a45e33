package dev.threadline.api.environments;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.threadline.api.webhooks.WebhookView;
import java.util.List;
import java.util.Map;

/**
 * An environment as REST clients see it: the contract's fields, then webhooks. Values of variables
 * and secrets, and MCP bearer tokens, are never returned: each shows as {@code "****"}. Times are
 * ISO 8601 UTC with {@code Z}. {@code buildLogs} is null here; {@code GET .../build/logs} serves
 * them. {@code webhooks} is beyond the contract: a signing secret shows only in the answer to the
 * write that generated it.
 */
public record EnvironmentView(
    String id,
    String userId,
    String name,
    String description,
    String baseImage,
    String dockerfileExtensions,
    Map<String, String> runtimes,
    PackagesView packages,
    List<VariableView> environmentVariables,
    List<SecretView> secrets,
    List<SetupScriptView> setupScripts,
    List<McpServerView> mcpServers,
    List<DocumentView> documentation,
    boolean internetAccess,
    String buildStatus,
    String buildHash,
    String buildError,
    String buildLogs,
    String lastBuildAt,
    String imageTag,
    @JsonProperty("isDefault") boolean isDefault,
    @JsonProperty("isActive") boolean isActive,
    String createdAt,
    String updatedAt,
    List<WebhookView> webhooks,
    WarmPoolView warmPool) {

  /**
   * Beyond the contract (docs/warm-pools.md): the size asked for, and the pool as the operator last
   * saw it.
   */
  public record WarmPoolView(int size, int ready, int claimed, String image) {}

  public record PackagesView(List<String> system, List<String> python, List<String> node) {}

  /** {@code value} is always the mask. */
  public record VariableView(String key, String value) {}

  /** {@code value} is always the mask. */
  public record SecretView(String name, String description, String value) {}

  public record SetupScriptView(String name, String script) {}

  /**
   * stdio servers carry command and args, http servers url and a masked bearerToken (null when
   * none).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record McpServerView(
      String type,
      String name,
      String command,
      List<String> args,
      String url,
      String bearerToken,
      boolean enabled,
      int startupTimeoutSec,
      int toolTimeoutSec) {}

  /** Either content or url is set. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DocumentView(String title, String content, String url) {}
}
