package dev.threadline.crds.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

/**
 * Which tool calls of the agent's runs wait for a person: a call of {@code run_command} takes the
 * action of the first {@link #commands} rule its command matches, any call (that one too, when no
 * command rule matched) the first {@link #tools} rule its tool's name matches, else {@link
 * #defaultAction}. An agent without a policy runs every call, as before.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ApprovalPolicy {
  public static final String ALLOW = "allow";
  public static final String ASK = "ask";
  static final String ACTION_PATTERN = "^(allow|ask)$";
  public static final int MAX_RULES = 50;

  @JsonProperty("default")
  @JsonPropertyDescription("What a call no rule matches does: allow (the default) or ask.")
  @Default(ALLOW)
  @Pattern(ACTION_PATTERN)
  private String defaultAction = ALLOW;

  @JsonPropertyDescription(
      "Rules by tool name, first match wins: run_command, read_file, write_file, edit_file,"
          + " list_files, and MCP tools as mcp__<server>__<tool>.")
  @Size(max = MAX_RULES)
  private List<ApprovalRule> tools = new ArrayList<>();

  @JsonPropertyDescription(
      "Rules by the command a run_command call runs, first match wins, before the tool rules.")
  @Size(max = MAX_RULES)
  private List<ApprovalRule> commands = new ArrayList<>();

  @JsonPropertyDescription(
      "Offer the model the ask_user tool: it asks a person a question and waits for the answer.")
  private Boolean askUser;

  public String getDefaultAction() {
    return defaultAction;
  }

  public void setDefaultAction(String defaultAction) {
    this.defaultAction = defaultAction;
  }

  public List<ApprovalRule> getTools() {
    return tools;
  }

  public void setTools(List<ApprovalRule> tools) {
    this.tools = tools;
  }

  public List<ApprovalRule> getCommands() {
    return commands;
  }

  public void setCommands(List<ApprovalRule> commands) {
    this.commands = commands;
  }

  public Boolean getAskUser() {
    return askUser;
  }

  public void setAskUser(Boolean askUser) {
    this.askUser = askUser;
  }
}
