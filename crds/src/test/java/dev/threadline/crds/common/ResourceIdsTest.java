package dev.threadline.crds.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResourceIdsTest {
  @Test
  void idAndNameMapBothWays() {
    assertThat(ResourceIds.toName("thread_7f3k")).contains("thread-7f3k");
    assertThat(ResourceIds.toId("thread-7f3k")).isEqualTo("thread_7f3k");
    assertThat(ResourceIds.toName("env_my-env")).contains("env-my-env");
    assertThat(ResourceIds.toId("env-my-env")).isEqualTo("env_my-env");
  }

  @Test
  void newIdsRoundTripAndDiffer() {
    String id = ResourceIds.newId("run");
    assertThat(id).startsWith("run_").hasSize(24);
    assertThat(ResourceIds.toId(ResourceIds.toName(id).orElseThrow())).isEqualTo(id);
    assertThat(ResourceIds.newId("run")).isNotEqualTo(id);
  }

  @Test
  void prefixMustMatchTheKind() {
    assertThat(ResourceIds.toName("env_abc", "env")).contains("env-abc");
    assertThat(ResourceIds.toName("thread_abc", "env")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "thread",
        "thread_",
        "Thread_abc",
        "thread_ABC",
        "thread_a/b",
        "../x_y",
        "a_b_"
      })
  void malformedIdsNameNothing(String id) {
    assertThat(ResourceIds.toName(id)).isEmpty();
  }

  @Test
  void nameWithoutDashIsItsOwnId() {
    assertThat(ResourceIds.toId("default")).isEqualTo("default");
    assertThatThrownBy(() -> ResourceIds.toId("Bad_Name"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
