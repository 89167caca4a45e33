package dev.threadline.models.scripted;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.StopReason;
import dev.threadline.models.TextDeltas;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import dev.threadline.models.Usage;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An offline, deterministic model, so the whole service runs and is testable without a model
 * endpoint. Without tools it answers directly (greetings, arithmetic, the time, the conversation);
 * with a {@code run_command} tool it runs the commands the task writes in backticks, one per turn,
 * and then summarises their exit codes and output. The reply is a pure function of the request and
 * the clock; the model name is ignored.
 */
public final class ScriptedModelProvider implements ModelProvider {

  public static final String NAME = "scripted";

  /**
   * The tool the scripted model calls for each backticked command, with {@code {"command": "..."}}.
   */
  public static final String RUN_COMMAND_TOOL = CommandSteps.RUN_COMMAND;

  private static final Logger log = LoggerFactory.getLogger(ScriptedModelProvider.class);

  /** Splits text before every word that follows whitespace; the pieces join to the text. */
  private static final Pattern WORD_STARTS = Pattern.compile("(?<=\\s)(?=\\S)");

  private final DirectAnswers directAnswers;

  /** Tells the time from the system clock in UTC. */
  public ScriptedModelProvider() {
    this(Clock.systemUTC());
  }

  /** Tells the time from {@code clock}: tests fix it. */
  public ScriptedModelProvider(Clock clock) {
    this.directAnswers = new DirectAnswers(Objects.requireNonNull(clock, "clock"));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ModelReply complete(ModelRequest request) {
    long inputTokens = TokenEstimator.estimate(promptText(request));
    if (request.tools().isEmpty()) {
      String answer = directAnswers.answer(request.messages());
      log.debug("Scripted direct answer of {} characters", answer.length());
      return textReply(answer, inputTokens, request.maxOutputTokens());
    }
    CommandSteps.Step step = CommandSteps.next(request.messages(), request.tools());
    log.debug("Scripted agent step with {} tool call(s)", step.toolCalls().size());
    if (step.toolCalls().isEmpty()) {
      return textReply(step.text(), inputTokens, request.maxOutputTokens());
    }
    long outputTokens = TokenEstimator.estimate(step.text() + argumentsText(step.toolCalls()));
    return new ModelReply(
        step.text(),
        step.toolCalls(),
        new Usage(inputTokens, outputTokens, 0),
        StopReason.TOOL_USE);
  }

  /** Hands the reply over word by word (each word with the spaces after it), as a model would. */
  @Override
  public ModelReply stream(ModelRequest request, TextDeltas deltas) {
    ModelReply reply = complete(request);
    for (String word : WORD_STARTS.split(reply.text())) {
      if (!word.isEmpty()) {
        deltas.onText(word);
      }
    }
    return reply;
  }

  /** Like a real model, a final text longer than the output budget is cut and says so. */
  private static ModelReply textReply(String text, long inputTokens, int maxOutputTokens) {
    long outputTokens = TokenEstimator.estimate(text);
    if (outputTokens <= maxOutputTokens) {
      return new ModelReply(
          text, List.of(), new Usage(inputTokens, outputTokens, 0), StopReason.END_TURN);
    }
    String cut = text.substring(0, Math.min(text.length(), maxOutputTokens * 4));
    return new ModelReply(
        cut, List.of(), new Usage(inputTokens, maxOutputTokens, 0), StopReason.MAX_TOKENS);
  }

  /** Everything a real model would read, as text: the estimate grows with the conversation. */
  private static String promptText(ModelRequest request) {
    StringBuilder text = new StringBuilder();
    if (request.instructionsOrNull() != null) {
      text.append(request.instructions());
    }
    for (ToolDefinition tool : request.tools()) {
      text.append(tool.name()).append(tool.description()).append(tool.parametersJsonSchema());
    }
    for (ChatMessage message : request.messages()) {
      text.append(message.content()).append(argumentsText(message.toolCalls()));
    }
    return text.toString();
  }

  private static String argumentsText(List<ToolCall> calls) {
    StringBuilder text = new StringBuilder();
    for (ToolCall call : calls) {
      text.append(call.name()).append(call.argumentsJson());
    }
    return text.toString();
  }
}
