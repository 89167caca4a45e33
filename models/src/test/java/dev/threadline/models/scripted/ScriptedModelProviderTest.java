package dev.threadline.models.scripted;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ScriptedModelProviderTest {

  /** A Tuesday afternoon; the zone is deliberately not UTC: answers must still be in UTC. */
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-03T14:05:09Z"), ZoneId.of("Asia/Tokyo"));

  private static final ToolDefinition RUN_COMMAND =
      new ToolDefinition(
          "run_command",
          "Runs a shell command",
          Map.of(
              "type",
              "object",
              "properties",
              Map.of("command", Map.of("type", "string")),
              "required",
              List.of("command")));

  private final ScriptedModelProvider model = new ScriptedModelProvider(CLOCK);

  private ModelReply ask(ChatMessage... messages) {
    return model.complete(ModelRequest.of("scripted", "You are helpful.", List.of(messages)));
  }

  private ModelReply agentStep(List<ChatMessage> history) {
    return model.complete(
        new ModelRequest("scripted", "Run tasks.", history, List.of(RUN_COMMAND), 4096));
  }

  @Test
  void anAskUserStepAsksAPersonWhenTheToolIsOfferedAndTheSummaryQuotesTheAnswer() {
    ToolDefinition askUser = new ToolDefinition("ask_user", "Asks a person", null);
    List<ToolDefinition> tools = List.of(RUN_COMMAND, askUser);
    List<ChatMessage> history = new java.util.ArrayList<>();
    history.add(ChatMessage.user("Do `ask_user: Which branch?` then `git push`"));

    ModelReply first =
        model.complete(new ModelRequest("scripted", "Run tasks.", history, tools, 4096));
    assertThat(first.toolCalls())
        .singleElement()
        .satisfies(call -> {
          assertThat(call.name()).isEqualTo("ask_user");
          assertThat(call.arguments()).containsEntry("question", "Which branch?");
        });
    history.add(ChatMessage.fromReply(first));
    history.add(ChatMessage.toolResult(first.toolCalls().get(0).id(), "main"));

    ModelReply second =
        model.complete(new ModelRequest("scripted", "Run tasks.", history, tools, 4096));
    assertThat(second.toolCalls())
        .singleElement()
        .satisfies(call -> {
          assertThat(call.name()).isEqualTo("run_command");
          assertThat(call.arguments()).containsEntry("command", "git push");
        });
    history.add(ChatMessage.fromReply(second));
    history.add(ChatMessage.toolResult(second.toolCalls().get(0).id(), "exit code 0\nok"));

    ModelReply last =
        model.complete(new ModelRequest("scripted", "Run tasks.", history, tools, 4096));
    assertThat(last.toolCalls()).isEmpty();
    assertThat(last.text()).contains("asked: Which branch? → main").contains("`git push`");
  }

  @Test
  void anAskUserStepIsACommandWhenTheToolIsNotOffered() {
    ModelReply reply = agentStep(List.of(ChatMessage.user("Do `ask_user: Which branch?`")));

    assertThat(reply.toolCalls())
        .singleElement()
        .satisfies(call -> assertThat(call.name()).isEqualTo("run_command"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"hi", "Hello!", "hey there", "Good morning", "good evening, Threadline", "HI :)"})
  void greetsAndSaysWhatItIs(String greeting) {
    ModelReply reply = ask(ChatMessage.user(greeting));

    assertThat(reply.text()).startsWith("Hello!").contains("Threadline's offline scripted model");
    assertThat(reply.stopReason()).isEqualTo(StopReason.END_TURN);
    assertThat(reply.toolCalls()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "what is 2 + 3 * 4?           | 2 + 3 * 4 = 14",
        "What's (2 + 3) * 4           | (2 + 3) * 4 = 20",
        "calculate 10 / 4             | 10 / 4 = 2.5",
        "what is 0.1 + 0.2?           | 0.1 + 0.2 = 0.3",
        "7*6                          | 7*6 = 42",
        "how much is 6 x 7?           | 6 x 7 = 42",
        "what is -3 - -5?             | -3 - -5 = 2",
        "what is 1 / 3                | 1 / 3 = 0.333333333333",
        "hi, what is 2 + 2?           | 2 + 2 = 4"
      })
  void answersSimpleArithmetic(String question, String answer) {
    assertThat(ask(ChatMessage.user(question)).text()).isEqualTo(answer);
  }

  @Test
  void divisionByZeroIsExplainedNotThrown() {
    assertThat(ask(ChatMessage.user("what is 1 / 0?")).text())
        .isEqualTo("1 / 0 has no value: it divides by zero.");
  }

  @Test
  void numbersInAStatementAreNotArithmetic() {
    assertThat(
            ask(ChatMessage.user("I have 2-3 apples in my basket and I wonder about them")).text())
        .startsWith("You asked: \"I have 2-3 apples");
  }

  @Test
  void tellsTimeAndDateInUtcFromTheClock() {
    assertThat(ask(ChatMessage.user("What time is it?")).text())
        .isEqualTo("It is 14:05 UTC on Tuesday, 3 November 2026.");
    assertThat(ask(ChatMessage.user("what's the date today?")).text())
        .isEqualTo("Today is Tuesday, 3 November 2026 (UTC); the time is 14:05 UTC.");
  }

  @Test
  void quotesThePreviousUserMessage() {
    ModelReply reply =
        ask(
            ChatMessage.user("My favourite colour is teal."),
            ChatMessage.assistant("Noted."),
            ChatMessage.user("What did I say before?"));

    assertThat(reply.text()).isEqualTo("Before this, you said: \"My favourite colour is teal.\"");
  }

  @Test
  void saysWhenThereIsNothingEarlierToQuote() {
    assertThat(ask(ChatMessage.user("what did I say before?")).text()).contains("first message");
  }

  @Test
  void otherwiseRestatesTheQuestionAndPointsToARealModel() {
    ModelReply reply = ask(ChatMessage.user("Why is the sky blue?"));

    assertThat(reply.text())
        .startsWith("You asked: \"Why is the sky blue?\".")
        .contains("offline scripted model")
        .contains("THREADLINE_MODEL_PROVIDER");
  }

  @Test
  void runsBacktickedCommandsOnePerTurnThenSummarises() {
    List<ChatMessage> history = new ArrayList<>();
    history.add(
        ChatMessage.user("Please run `echo hello` and then\n```bash\nls /missing\n```\nthanks"));

    ModelReply first = agentStep(history);
    assertThat(first.stopReason()).isEqualTo(StopReason.TOOL_USE);
    assertThat(first.toolCalls())
        .singleElement()
        .satisfies(call -> {
          assertThat(call.name()).isEqualTo("run_command");
          assertThat(call.arguments()).isEqualTo(Map.of("command", "echo hello"));
        });
    history.add(ChatMessage.fromReply(first));
    history.add(
        ChatMessage.toolResult(
            first.toolCalls().get(0).id(), "{\"exit_code\":0,\"output\":\"hello\\n\"}"));

    ModelReply second = agentStep(history);
    assertThat(second.stopReason()).isEqualTo(StopReason.TOOL_USE);
    ToolCall secondCall = second.toolCalls().get(0);
    assertThat(secondCall.arguments()).isEqualTo(Map.of("command", "ls /missing"));
    assertThat(secondCall.id()).isNotEqualTo(first.toolCalls().get(0).id());
    history.add(ChatMessage.fromReply(second));
    history.add(
        ChatMessage.toolResult(
            secondCall.id(),
            "{\"exit_code\":2,\"output\":\"ls: cannot access '/missing': No such file or"
                + " directory\\n\"}"));

    ModelReply summary = agentStep(history);
    assertThat(summary.stopReason()).isEqualTo(StopReason.END_TURN);
    assertThat(summary.toolCalls()).isEmpty();
    assertThat(summary.text())
        .isEqualTo(
            """
            Ran 2 commands:
            1. `echo hello` → exit code 0
               hello
            2. `ls /missing` → exit code 2
               ls: cannot access '/missing': No such file or directory
            1 of 2 commands failed.\
            """);
  }

  @Test
  void acceptsPlainTextToolResults() {
    List<ChatMessage> history = new ArrayList<>(List.of(ChatMessage.user("run `uname`")));
    ModelReply call = agentStep(history);
    history.add(ChatMessage.fromReply(call));
    history.add(ChatMessage.toolResult(call.toolCalls().get(0).id(), "Linux"));

    assertThat(agentStep(history).text())
        .contains("`uname` → exit code unknown")
        .contains("   Linux");
  }

  @Test
  void aNewTaskStartsCountingAgain() {
    List<ChatMessage> history = new ArrayList<>(List.of(ChatMessage.user("run `true`")));
    ModelReply call = agentStep(history);
    history.add(ChatMessage.fromReply(call));
    history.add(
        ChatMessage.toolResult(call.toolCalls().get(0).id(), "{\"exit_code\":0,\"output\":\"\"}"));
    history.add(ChatMessage.fromReply(agentStep(history)));
    history.add(ChatMessage.user("now run `pwd`"));

    ModelReply next = agentStep(history);

    assertThat(next.toolCalls())
        .singleElement()
        .satisfies(c -> assertThat(c.arguments()).isEqualTo(Map.of("command", "pwd")));
  }

  @Test
  void saysThereIsNothingToRunWithoutBackticks() {
    ModelReply reply = agentStep(List.of(ChatMessage.user("tidy up the repository")));

    assertThat(reply.toolCalls()).isEmpty();
    assertThat(reply.stopReason()).isEqualTo(StopReason.END_TURN);
    assertThat(reply.text()).startsWith("There was nothing to run");
  }

  @Test
  void callsNoToolWhenRunCommandIsNotOffered() {
    ToolDefinition other = new ToolDefinition("read_file", "Reads a file", null);
    ModelReply reply =
        model.complete(
            new ModelRequest(
                "scripted", null, List.of(ChatMessage.user("run `ls`")), List.of(other), 100));

    assertThat(reply.toolCalls()).isEmpty();
    assertThat(reply.text()).contains("no run_command tool").contains("`ls`");
  }

  @Test
  void isDeterministic() {
    List<ChatMessage> history = List.of(ChatMessage.user("run `a` then `b`"));
    ScriptedModelProvider another = new ScriptedModelProvider(CLOCK);

    assertThat(agentStep(history))
        .isEqualTo(agentStep(history))
        .isEqualTo(
            another.complete(
                new ModelRequest("scripted", "Run tasks.", history, List.of(RUN_COMMAND), 4096)));
    assertThat(ask(ChatMessage.user("Why?"))).isEqualTo(ask(ChatMessage.user("Why?")));
  }

  @Test
  void estimatesUsageFromTextLength() {
    ModelReply reply =
        model.complete(ModelRequest.of("scripted", null, List.of(ChatMessage.user("12345678"))));

    assertThat(reply.usage().inputTokens()).isEqualTo(2); // ceil(8 / 4)
    assertThat(reply.usage().outputTokens()).isEqualTo((reply.text().length() + 3) / 4);
    assertThat(reply.usage().cachedTokens()).isZero();
  }

  @Test
  void cutsAnswersAtTheOutputBudget() {
    ModelReply reply =
        model.complete(
            new ModelRequest(
                "scripted", null, List.of(ChatMessage.user("Why is the sky blue?")), List.of(), 5));

    assertThat(reply.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
    assertThat(reply.text()).hasSize(20);
    assertThat(reply.usage().outputTokens()).isEqualTo(5);
  }

  @Test
  void streamsItsAnswerWordByWordAndReturnsTheSameReply() {
    List<String> deltas = new ArrayList<>();
    ModelRequest request =
        ModelRequest.of("scripted", "You are helpful.", List.of(ChatMessage.user("Hello there")));

    ModelReply streamed = model.stream(request, deltas::add);

    assertThat(streamed).isEqualTo(model.complete(request));
    assertThat(deltas).hasSizeGreaterThan(1);
    assertThat(String.join("", deltas)).isEqualTo(streamed.text());
    assertThat(deltas).allSatisfy(delta -> assertThat(delta.strip()).doesNotContain(" "));
  }
}
