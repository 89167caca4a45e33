package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class ResourceLogContextTest {

  @AfterEach
  void clear() {
    MDC.clear();
  }

  @Test
  void putsTheResourceWhereTheFrameworkPutsItAndTakesItAway() {
    Run run = new Run();
    run.setMetadata(new ObjectMetaBuilder().withNamespace("user-1").withName("run-a-1").build());

    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      assertThat(MDC.get("resource.kind")).isEqualTo("Run");
      assertThat(MDC.get("resource.namespace")).isEqualTo("user-1");
      assertThat(MDC.get("resource.name")).isEqualTo("run-a-1");
    }

    assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
  }

  @Test
  void aNestedContextGivesBackTheOuterOne() {
    MDC.put("resource.kind", "Thread");
    MDC.put("resource.namespace", "user-1");
    MDC.put("resource.name", "thread-a");

    try (ResourceLogContext logged = ResourceLogContext.of("Run", "user-1", "run-a-1")) {
      assertThat(MDC.get("resource.name")).isEqualTo("run-a-1");
    }

    assertThat(MDC.get("resource.kind")).isEqualTo("Thread");
    assertThat(MDC.get("resource.name")).isEqualTo("thread-a");
  }
}
