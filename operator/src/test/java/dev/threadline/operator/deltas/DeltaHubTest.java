package dev.threadline.operator.deltas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeltaHubTest {
  private final DeltaHub hub = new DeltaHub(new DeltaSettings("token", "http://10.1.2.3:8081"));

  @Test
  void opensSessionsOnlyForRunsThatAskAndWhenTheChannelIsOn() {
    assertThat(hub.open(run(null))).isEmpty();
    assertThat(hub.open(run(false))).isEmpty();
    assertThat(DeltaHub.off().open(run(true))).isEmpty();
    assertThat(new DeltaHub(new DeltaSettings("token", "")).open(run(true)))
        .as("no address yet")
        .isEmpty();

    DeltaSession session = hub.open(run(true)).orElseThrow();
    assertThat(hub.url(session))
        .isEqualTo("http://10.1.2.3:8081/internal/v1/deltas/" + session.id());
    assertThat(session.id()).hasSize(32);
    assertThat(hub.find(session.id())).contains(session);
  }

  @Test
  void aLateReaderGetsEveryLineInOrderThenTheEnd() throws Exception {
    DeltaSession session = hub.open(run(true)).orElseThrow();
    session.text("msg_a-1").onText("Hel");
    session.text("msg_a-1").onText("lo");
    session.output("tool_a-r2").onText("out\n");
    session.written(7);
    session.close();
    session.text("msg_a-1").onText("after the end");

    List<String> lines = new ArrayList<>();
    while (!session.isDrained(lines.size())) {
      lines.addAll(session.read(lines.size(), Duration.ofSeconds(1)));
    }
    assertThat(lines)
        .containsExactly(
            "{\"type\":\"response.output_text.delta\",\"delta\":\"Hel\",\"item_id\":\"msg_a-1\"}",
            "{\"type\":\"response.output_text.delta\",\"delta\":\"lo\",\"item_id\":\"msg_a-1\"}",
            "{\"type\":\"response.output_item.delta\",\"delta\":\"out\\n\",\"item_id\":\"tool_a-r2\"}",
            "{\"type\":\"threadline.written\",\"seq\":7}");
  }

  @Test
  void settingsNeverPrintTheTokenAndRefuseAnAddressThatIsNotABaseUrl() {
    assertThat(new DeltaSettings("s3cret", "").toString()).doesNotContain("s3cret");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new DeltaSettings("t", "10.1.2.3:8081/path"))
        .hasMessageContaining("THREADLINE_DELTAS_ADDRESS");
  }

  private static Run run(Boolean streamTokens) {
    Run run = new Run();
    RunSpec spec = new RunSpec();
    spec.setStreamTokens(streamTokens);
    run.setSpec(spec);
    return run;
  }
}
