package dev.threadline.core.approvals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.agent.ApprovalPolicy;
import dev.threadline.crds.agent.ApprovalRule;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApprovalGateTest {

  @Test
  void noPolicyNoGate() {
    assertThat(ApprovalGate.of(null)).isEmpty();
  }

  @Test
  void commandRulesComeFirstThenToolRulesThenTheDefault() {
    ApprovalPolicy policy = new ApprovalPolicy();
    policy.setCommands(
        List.of(
            new ApprovalRule("git status*", "allow"),
            new ApprovalRule("git *", "ask"),
            new ApprovalRule("*sudo*", "ask")));
    policy.setTools(
        List.of(new ApprovalRule("write_file", "ask"), new ApprovalRule("mcp__*", "ask")));
    ApprovalGate gate = ApprovalGate.of(policy).orElseThrow();

    assertThat(gate.reasonToAsk("run_command", "git push origin"))
        .get()
        .asString()
        .contains("git *");
    assertThat(gate.reasonToAsk("run_command", "git status --short")).isEmpty();
    assertThat(gate.reasonToAsk("run_command", "echo x | sudo tee y")).isPresent();
    assertThat(gate.reasonToAsk("run_command", "ls")).isEmpty();
    assertThat(gate.reasonToAsk("write_file", null)).get().asString().contains("write_file");
    assertThat(gate.reasonToAsk("edit_file", null)).isEmpty();
    assertThat(gate.reasonToAsk("mcp__github__create_issue", null)).isPresent();
    assertThat(gate.offersQuestions()).isFalse();
  }

  @Test
  void aDefaultOfAskAsksForWhatNoRuleAllows() {
    ApprovalPolicy policy = new ApprovalPolicy();
    policy.setDefaultAction("ask");
    policy.setTools(List.of(new ApprovalRule("read_file", "allow")));
    policy.setAskUser(true);
    ApprovalGate gate = ApprovalGate.of(policy).orElseThrow();

    assertThat(gate.reasonToAsk("read_file", null)).isEmpty();
    assertThat(gate.reasonToAsk("run_command", "ls")).isPresent();
    assertThat(gate.offersQuestions()).isTrue();
  }
}
