package dev.threadline.core.approvals;

import dev.threadline.crds.agent.ApprovalPolicy;
import dev.threadline.crds.agent.ApprovalRule;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An agent's {@link ApprovalPolicy} as the worker applies it to each tool call: a {@code
 * run_command} call takes the first command rule its command matches, any call the first tool rule
 * its tool's name matches, else the policy's default.
 */
public final class ApprovalGate {
  public static final String RUN_COMMAND = "run_command";

  /** The tool through which the model asks a person a question. */
  public static final String ASK_USER = "ask_user";

  private record Rule(Glob glob, boolean ask) {
    static Rule of(ApprovalRule rule) {
      return new Rule(Glob.of(rule.getMatch()), ApprovalPolicy.ASK.equals(rule.getAction()));
    }
  }

  private final List<Rule> tools;
  private final List<Rule> commands;
  private final boolean askByDefault;
  private final boolean askUser;

  private ApprovalGate(ApprovalPolicy policy) {
    this.tools = rules(policy.getTools());
    this.commands = rules(policy.getCommands());
    this.askByDefault = ApprovalPolicy.ASK.equals(policy.getDefaultAction());
    this.askUser = Boolean.TRUE.equals(policy.getAskUser());
  }

  /** The gate of an agent's policy; empty when it has none (every call runs). */
  public static Optional<ApprovalGate> of(ApprovalPolicy policy) {
    return Optional.ofNullable(policy).map(ApprovalGate::new);
  }

  /** Whether the model is offered {@link #ASK_USER}. */
  public boolean offersQuestions() {
    return askUser;
  }

  /**
   * Why a call of {@code tool} (running {@code command}, for {@code run_command}) must wait for a
   * person; empty when it runs at once.
   */
  public Optional<String> reasonToAsk(String tool, String command) {
    if (RUN_COMMAND.equals(tool) && command != null) {
      for (Rule rule : commands) {
        if (rule.glob().matches(command)) {
          return rule.ask()
              ? Optional.of("the command matches the rule '" + rule.glob() + "'")
              : Optional.empty();
        }
      }
    }
    for (Rule rule : tools) {
      if (rule.glob().matches(Objects.requireNonNullElse(tool, ""))) {
        return rule.ask()
            ? Optional.of("the tool " + tool + " matches the rule '" + rule.glob() + "'")
            : Optional.empty();
      }
    }
    return askByDefault
        ? Optional.of("the agent's policy asks for every call no rule allows")
        : Optional.empty();
  }

  private static List<Rule> rules(List<ApprovalRule> rules) {
    return rules == null
        ? List.of()
        : rules.stream()
            .filter(Objects::nonNull)
            .filter(r -> r.getMatch() != null)
            .map(Rule::of)
            .toList();
  }
}
