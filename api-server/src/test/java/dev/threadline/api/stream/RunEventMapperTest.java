package dev.threadline.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every run event type, on each route, through a fresh mapper: the contract events it yields, as
 * exact JSON. Single quotes stand for double quotes to keep the table readable.
 */
class RunEventMapperTest {
  private static final String STARTING =
      "{'type':'computer.starting','threadId':'thread_abc','userId':'u-1'}";
  private static final String RESPONSE_STARTED =
      "{'type':'response.started','response':{'id':'run_abc-1',"
          + "'thread_id':'thread_abc','user_id':'u-1','workspace_id':'workspace_abc','model':'scripted',"
          + "'execution_mode':'containerized','created_at':1767225600,'status':'in_progress'}}";
  private static final String COMPLETED =
      "{'type':'response.completed','response':{'id':'run_abc-1',"
          + "'thread_id':'thread_abc','status':'completed','duration_ms':2000,'usage':{'input_tokens':10,"
          + "'output_tokens':5,'cached_tokens':1,'total_tokens':15},'completed_at':1767225602}}";
  private static final String STREAM_COMPLETED = "{'type':'stream.completed'}";

  static Stream<Arguments> table() {
    return Stream.of(
        row(
            "computer",
            "started",
            "{'route':'computer','reason':'runs commands','model':'scripted'}",
            STARTING),
        row(
            "computer",
            "started",
            "{'run_id':'run-abc-1','model':'scripted','workspace':'/workspace'}",
            STARTING),
        row(
            "computer",
            "planning",
            "{'text':'First list, then write'}",
            STARTING,
            "{'type':'response.item.completed','item':{'type':'planning','id':'planning_abc-1-7','role':'assistant','status':'completed','content':{'text':'First"
                + " list, then write'}}}",
            RESPONSE_STARTED),
        row(
            "computer",
            "reasoning",
            "{'text':'ls first'}",
            STARTING,
            RESPONSE_STARTED,
            "{'type':'response.item.completed','item':{'type':'reasoning','id':'reasoning_abc-1-7',"
                + "'status':'completed','content':{'text':'ls first'}}}"),
        row(
            "computer",
            "message",
            "{'role':'assistant','text':'Done'}",
            STARTING,
            RESPONSE_STARTED,
            "{'type':'response.item.completed','item':{'type':'message','id':'msg_abc-1-7','role':'assistant',"
                + "'status':'completed','content':[{'type':'text','text':'Done'}]}}"),
        row(
            "computer",
            "tool_call",
            "{'id':'tool_1','status':'completed','tool':{'type':'command_execution',"
                + "'name':'bash','command':'ls','output':'a.txt','exit_code':0},'duration_ms':12}",
            STARTING,
            RESPONSE_STARTED,
            "{'type':'response.item.completed','item':{'type':'tool_call','id':'tool_abc-1-7','status':'completed',"
                + "'tool':{'type':'command_execution','name':'bash','command':'ls','output':'a.txt','exit_code':0},"
                + "'metadata':{'duration_ms':12}}}"),
        row(
            "computer",
            "tool_call",
            "{'id':'tool_2','status':'failed','tool':{'type':'file_read','name':'read',"
                + "'path':'x.txt','output':'no such file'},'duration_ms':1}",
            STARTING,
            RESPONSE_STARTED,
            "{'type':'response.item.completed','item':{'type':'tool_call','id':'tool_abc-1-7','status':'failed','tool':{'type':'file_read','name':'read','path':'x.txt','output':'no"
                + " such file'},'metadata':{'duration_ms':1}}}"),
        row(
            "computer",
            "file_change",
            "{'path':'a.txt','change':'modify','additions':3,'deletions':1}",
            STARTING,
            RESPONSE_STARTED,
            "{'type':'response.item.completed','item':{'type':'file_change','id':'file_abc-1-7','status':'completed',"
                + "'path':'a.txt','change':'modify','additions':3,'deletions':1}}"),
        row(
            "computer",
            "setup",
            "{'text':'Attachments placed'}",
            STARTING,
            RESPONSE_STARTED,
            "{'type':'response.item.completed','item':{'type':'setup','id':'setup_abc-1-7','status':'completed','content':{'text':'Attachments"
                + " placed'}}}"),
        row(
            "computer",
            "error",
            "{'message':'MCP server slow'}",
            STARTING,
            RESPONSE_STARTED,
            "{'type':'response.item.completed','item':{'type':'error','id':'error_abc-1-7','status':'completed','error':{'message':'MCP"
                + " server slow'}}}"),
        row("computer", "usage", "{'input_tokens':4,'output_tokens':2,'cached_tokens':0}"),
        row(
            "computer",
            "result",
            "{'response':'Done','actions':['ls'],'usage':{'input_tokens':10,"
                + "'output_tokens':5,'cached_tokens':1},'diffs':[],'duration_ms':2000}",
            COMPLETED,
            STREAM_COMPLETED),
        row(
            "computer",
            "failed",
            "{'code':'execution_timeout','message':'Took too long'}",
            "{'type':'response.failed','response':{'id':'run_abc-1','thread_id':'thread_abc','status':'failed','error':{'message':'Took"
                + " too long','code':'execution_timeout'},'duration_ms':2000,"
                + "'failed_at':1767225602}}",
            STREAM_COMPLETED),
        row("computer", "something_new", "{'x':1}"),
        row("direct", "started", "{'route':'direct','reason':'a greeting','model':'scripted'}"),
        row(
            "direct",
            "message",
            "{'role':'assistant','text':'Hello!'}",
            "{'type':'direct.response','message':'Hello!','threadId':'thread_abc','userId':'u-1'}"),
        row(
            "direct",
            "result",
            "{'phase':'completed','durationMs':2000,'usage':{'inputTokens':10,"
                + "'outputTokens':5,'cachedTokens':1}}",
            "{'type':'direct.response','message':'Hello from"
                + " status','threadId':'thread_abc','userId':'u-1'}",
            COMPLETED,
            STREAM_COMPLETED),
        row(
            "direct",
            "failed",
            "{'error':{'code':'usage_exhausted','message':'Allowance used up'},"
                + "'phase':'failed','durationMs':2000}",
            "{'type':'response.failed','response':{'id':'run_abc-1','thread_id':'thread_abc','status':'failed','error':{'message':'Allowance"
                + " used up','code':'usage_exhausted'},'duration_ms':2000,'failed_at':1767225602}}",
            STREAM_COMPLETED),
        row("direct", "usage", "{'inputTokens':1}"),
        row(
            "direct",
            "reasoning",
            "{'text':'thinking'}",
            "{'type':'response.item.completed','item':{'type':'reasoning','id':'reasoning_abc-1-7',"
                + "'status':'completed','content':{'text':'thinking'}}}"));
  }

  @ParameterizedTest(name = "{0} route, {1} event")
  @MethodSource("table")
  void mapsEachEventTypeOnEachRoute(String route, String type, String data, List<String> expected) {
    Run run = run(route, type.equals("failed") ? "failed" : "completed");
    if (type.equals("failed")) {
      run.getStatus().setError(null);
    }

    List<StreamEvent> events = new RunEventMapper("u-1").map(run, event(7, type, data));

    assertThat(events)
        .extracting(event -> event.json().toString())
        .containsExactlyElementsOf(expected);
    assertThat(events)
        .allSatisfy(
            event -> assertThat(event.json().get("type").asString()).isEqualTo(event.type()));
  }

  @Test
  void computerEventsAppearOnceAndNothingFollowsTheEnd() {
    RunEventMapper mapper = new RunEventMapper("u-1");
    Run run = run("computer", "completed");

    List<String> types = new ArrayList<>();
    for (LogEvent event :
        List.of(
            event(1, "started", "{'route':'computer'}"),
            event(2, "planning", "{'text':'p'}"),
            event(
                3, "tool_call", "{'tool':{'type':'command_execution','command':'ls','output':''}}"),
            event(4, "message", "{'text':'m'}"),
            event(5, "result", "{}"),
            event(6, "message", "{'text':'late'}"))) {
      mapper.map(run, event).forEach(mapped -> types.add(mapped.type()));
    }

    assertThat(types)
        .containsExactly(
            "computer.starting",
            "response.item.completed",
            "response.started",
            "response.item.completed",
            "response.item.completed",
            "response.completed",
            "stream.completed");
    assertThat(mapper.finished()).isTrue();
    assertThat(mapper.finish(run)).isEmpty();
  }

  @Test
  void anApprovalRequestStreamsWithTheArgumentsAsTheModelGaveThem() {
    RunEventMapper mapper = new RunEventMapper("u-1");
    Run run = run("computer", "running");
    mapper.map(run, event(1, "started", "{'route':'computer'}"));
    mapper.map(run, event(2, "planning", "{'text':'p'}"));

    List<String> json =
        mapper
            .map(
                run,
                event(
                    3,
                    "approval_requested",
                    "{'callId':'call_abc-1_2','kind':'approval','tool':'run_command',"
                        + "'arguments':{'command':'git push'},'reason':'r'}"))
            .stream()
            .map(mapped -> mapped.json().toString())
            .toList();

    assertThat(json)
        .containsExactly(
            quoted(
                "{'type':'response.approval_requested','threadId':'thread_abc',"
                    + "'runId':'run_abc-1','approval':{'callId':'call_abc-1_2','kind':'approval',"
                    + "'tool':'run_command','arguments':{'command':'git push'},'reason':'r'}}"));
  }

  @Test
  void aMessageToAnExistingThreadStreamsTheGeneralForm() {
    RunEventMapper mapper = new RunEventMapper("u-1");
    Run run = run("direct", "completed");
    run.getMetadata().setAnnotations(java.util.Map.of("threadline.dev/posted-to-thread", "true"));

    List<String> json = new ArrayList<>();
    for (LogEvent event :
        List.of(
            event(1, "started", "{'route':'direct'}"),
            event(2, "message", "{'text':'Hi!'}"),
            event(3, "result", "{}"))) {
      mapper.map(run, event).forEach(mapped -> json.add(mapped.json().toString()));
    }

    assertThat(json)
        .containsExactly(
            quoted(
                "{'type':'response.created','response':{'id':'run_abc-1','object':'response','thread_id':'thread_abc',"
                    + "'model':'scripted','created_at':1767225601,'status':'in_progress'}}"),
            quoted(
                "{'type':'response.output_item.added','item':{'type':'message','id':'msg_abc-1-2','role':'assistant',"
                    + "'status':'in_progress','content':[]}}"),
            quoted(
                "{'type':'response.item.completed','item':{'type':'message','id':'msg_abc-1-2','role':'assistant',"
                    + "'status':'completed','content':[{'type':'text','text':'Hi!'}]}}"),
            quoted(COMPLETED),
            quoted(STREAM_COMPLETED));
  }

  @Test
  void aFinishedRunWithoutItsTerminalEventsIsClosedFromItsStatus() {
    Run answered = run("direct", "completed");
    Run cancelled = run(null, "cancelled");
    cancelled.getStatus().setError(null);

    assertThat(new RunEventMapper("u-1").finish(answered))
        .extracting(event -> event.json().toString())
        .containsExactly(
            quoted(
                "{'type':'direct.response','message':'Hello from status','threadId':'thread_abc',"
                    + "'userId':'u-1'}"),
            quoted(COMPLETED),
            quoted(STREAM_COMPLETED));
    assertThat(new RunEventMapper("u-1").finish(cancelled))
        .extracting(StreamEvent::type)
        .containsExactly("response.failed", "stream.completed");
    assertThat(
            new RunEventMapper("u-1")
                .finish(cancelled)
                .getFirst()
                .json()
                .get("response")
                .get("error")
                .get("code")
                .asString())
        .isEqualTo("cancelled");
    assertThat(new RunEventMapper("u-1").finish(run("direct", "running"))).isEmpty();
  }

  @Test
  void progressStreamsOnlyEventsItHasNotSeen() {
    RunProgress progress = new RunProgress("u-1");
    Run running = run("computer", "running");
    List<LogEvent> firstBatch =
        List.of(event(1, "started", "{'route':'computer'}"), event(2, "planning", "{'text':'p'}"));
    Run done = run("computer", "completed");
    List<LogEvent> whole =
        List.of(
            event(1, "started", "{'route':'computer'}"),
            event(2, "planning", "{'text':'p'}"),
            event(3, "message", "{'text':'m'}"),
            event(4, "result", "{}"));

    List<StreamFrame> first = progress.advance(running, firstBatch);
    assertThat(first)
        .extracting(frame -> frame.event().type())
        .containsExactly("computer.starting", "response.item.completed", "response.started");
    assertThat(first)
        .extracting(frame -> frame.cursor().toString())
        .containsExactly("run_abc-1:1:0", "run_abc-1:2:0", "run_abc-1:2:1");
    assertThat(progress.advance(running, firstBatch)).isEmpty();
    assertThat(progress.finish(running)).isEmpty();
    assertThat(progress.finished()).isFalse();
    List<StreamFrame> rest = progress.advance(done, whole);
    assertThat(rest)
        .extracting(frame -> frame.event().type())
        .containsExactly("response.item.completed", "response.completed", "stream.completed");
    assertThat(rest)
        .extracting(frame -> frame.cursor().toString())
        .containsExactly("run_abc-1:3:0", "run_abc-1:4:0", "run_abc-1:4:1");
    assertThat(progress.finished()).isTrue();
    assertThat(progress.advance(done, whole)).isEmpty();
    assertThat(progress.finish(done)).isEmpty();
  }

  private static Arguments row(String route, String type, String data, String... expected) {
    return Arguments.of(
        route, type, data, Stream.of(expected).map(RunEventMapperTest::quoted).toList());
  }

  private static Run run(String route, String phase) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName("run-abc-1")
            .withNamespace("ns")
            .withCreationTimestamp("2026-01-01T00:00:00Z")
            .build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc");
    spec.setSequence(1L);
    spec.setMessage("hi");
    run.setSpec(spec);
    RunStatus status = new RunStatus();
    status.setPhase(phase);
    status.setRoute(route);
    status.setModel("scripted");
    status.setStartedAt("2026-01-01T00:00:00Z");
    if (!phase.equals("running")) {
      status.setCompletedAt("2026-01-01T00:00:02Z");
      status.setDurationMs(2000L);
      TokenCounts usage = new TokenCounts();
      usage.setInputTokens(10L);
      usage.setOutputTokens(5L);
      usage.setCachedTokens(1L);
      status.setUsage(usage);
    }
    if (phase.equals("completed")) {
      status.setResponse("Hello from status");
    } else if (!phase.equals("running")) {
      RunError error = new RunError();
      error.setCode("execution_failed");
      error.setMessage("from status");
      status.setError(error);
    }
    run.setStatus(status);
    return run;
  }

  private static LogEvent event(long seq, String type, String data) {
    return new LogEvent(seq, type, "2026-01-01T00:00:01Z", parse(quoted(data)));
  }

  private static JsonNode parse(String json) {
    try {
      return Serialization.jsonMapper().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(json, e);
    }
  }

  private static String quoted(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }
}
