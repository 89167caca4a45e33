package dev.threadline.crds.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * One rule of an {@link ApprovalPolicy}: a glob ({@code *} matches any text, every other character
 * itself, over the whole name or command) and what a call it matches does.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ApprovalRule {
  public static final int MAX_MATCH = 256;

  @JsonPropertyDescription(
      "A glob over the whole tool name (e.g. `write_file`, `mcp__github__*`) or the whole command"
          + " (e.g. `git push*`, `*sudo*`): `*` matches any text, every other character itself.")
  @Required
  @Size(min = 1, max = MAX_MATCH)
  private String match;

  @JsonPropertyDescription("allow (run it) or ask (wait for a person's approval first).")
  @Required
  @Pattern(ApprovalPolicy.ACTION_PATTERN)
  private String action;

  public ApprovalRule() {}

  public ApprovalRule(String match, String action) {
    this.match = match;
    this.action = action;
  }

  public String getMatch() {
    return match;
  }

  public void setMatch(String match) {
    this.match = match;
  }

  public String getAction() {
    return action;
  }

  public void setAction(String action) {
    this.action = action;
  }
}
