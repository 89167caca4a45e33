package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AgentObjectsTest {

  @Test
  void theWorkspaceIsNamedAfterTheThreadsSuffix() {
    assertThat(AgentObjects.workspaceClaimName("thread-7f3k")).isEqualTo("workspace-7f3k");
  }

  @Test
  void longNamesBecomeStableValidLabelValues() {
    String name = "thread-" + "a".repeat(80) + "-1";
    String value = AgentObjects.labelValue(name);
    assertThat(value).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
    assertThat(AgentObjects.labelValue(name)).isEqualTo(value);
    assertThat(AgentObjects.labelValue("thread-" + "a".repeat(80) + "-2")).isNotEqualTo(value);
    assertThat(AgentObjects.labelValue("thread-x-1")).isEqualTo("thread-x-1");
  }
}
