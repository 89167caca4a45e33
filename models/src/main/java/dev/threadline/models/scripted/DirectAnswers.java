package dev.threadline.models.scripted;

import dev.threadline.models.ChatMessage;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scripted model's answers when no tools are offered: greetings, simple arithmetic, the date
 * and time, quoting the conversation, and otherwise an honest explanation of what it is. Each rule
 * is a pure function of the conversation and the clock.
 */
final class DirectAnswers {

  static final String GREETING =
      "Hello! I'm Threadline's offline scripted model. I can greet you, work out simple arithmetic"
          + " (try \"what is 2 + 3 * 4?\"), tell the date and time, and in an agent run I execute"
          + " the shell commands you write in backticks. For real answers, configure a model with "
          + "THREADLINE_MODEL_PROVIDER.";

  // Every pattern here runs on user text of up to hundreds of thousands of characters: each is
  // anchored or possessive, and the scans that pick expressions are written by hand, so no start
  // position re-reads what another already read (see DirectAnswersLinearTest).
  private static final Pattern GREETING_START =
      Pattern.compile(
          "^(hi|hello|hey|hiya|howdy|hallo|greetings|yo|good"
              + " (morning|afternoon|evening|day)|morning|evening)\\b");

  /**
   * A greeting plus a few words ("hello there, how are you") is still a greeting; more is a
   * question.
   */
  private static final int GREETING_MAX_WORDS = 6;

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}']++");

  private static final Pattern ARITHMETIC_PREFIX =
      Pattern.compile(
          "\\b(?:what\\s++is|what'?s|calculate|compute|evaluate|how\\s++much\\s++is|solve)"
              + "\\s++(.*+)$",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern BINARY_OPERATOR =
      Pattern.compile("[\\d.)]\\s*+[-+*/x×÷]\\s*+[-+(\\d.]");

  private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
  private static final Pattern TIME_QUESTION =
      Pattern.compile(
          "\\b(?:what\\s++time|what(?:'s|\\s++is)\\s++the\\s++time|current\\s++time"
              + "|time\\s++is\\s++it)\\b",
          FLAGS);
  private static final Pattern DATE_QUESTION =
      Pattern.compile(
          "\\b(?:what\\s++(?:day|date)"
              + "|what(?:'s|\\s++is)\\s++(?:the\\s++|today's\\s++)?(?:date|day)"
              + "|current\\s++date|today'?s\\s++date|which\\s++day)\\b",
          FLAGS);
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("EEEE, d MMMM yyyy", Locale.ENGLISH);
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm", Locale.ENGLISH);

  private static final Pattern HISTORY_QUESTION =
      Pattern.compile(
          "\\b(?:what\\s++(?:did|have)\\s++i\\s++(?:just\\s++)?"
              + "(?:say|said|ask|asked|write|wrote|type|typed)"
              + "|my\\s++(?:previous|last|earlier|first)\\s++(?:message|question)"
              + "|what\\s++was\\s++my\\s++(?:previous|last))\\b",
          FLAGS);

  private final Clock clock;

  DirectAnswers(Clock clock) {
    this.clock = clock;
  }

  String answer(List<ChatMessage> messages) {
    int latest = Conversation.latestUserIndex(messages);
    if (latest < 0) {
      return "There is no question to answer yet: the conversation has no user message.";
    }
    return answer(messages.get(latest).content(), messages, latest);
  }

  /** The answer to {@code text}, the user message at {@code latest}; the tests count its reads. */
  String answer(CharSequence text, List<ChatMessage> messages, int latest) {
    CharSequence question = Text.strip(text);
    return arithmetic(question)
        .or(() -> clockAnswer(question))
        .or(() -> historyAnswer(question, messages, latest))
        .or(() -> greeting(question))
        .orElseGet(() -> explanation(question));
  }

  private Optional<String> arithmetic(CharSequence question) {
    CharSequence body = Text.withoutTrailing(question, "?=.!");
    Matcher prefixed = ARITHMETIC_PREFIX.matcher(body);
    // Only a question that asks for a result, or a bare expression: "I have 2-3 apples" is not
    // maths.
    boolean asked = prefixed.find();
    CharSequence candidates = asked ? body.subSequence(prefixed.start(1), prefixed.end(1)) : body;
    String best = null;
    for (CharSequence found : Expressions.in(candidates)) {
      String expression = Text.collapseSpaces(found);
      if (BINARY_OPERATOR.matcher(expression).find()
          && (best == null || expression.length() > best.length())) {
        best = expression;
      }
    }
    if (best == null || (!asked && !best.equals(Text.collapseSpaces(candidates)))) {
      return Optional.empty();
    }
    try {
      return Optional.of(best + " = " + ArithmeticEvaluator.evaluate(best));
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("division by zero")) {
        return Optional.of(best + " has no value: it divides by zero.");
      }
      return Optional.empty();
    }
  }

  private Optional<String> clockAnswer(CharSequence question) {
    ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
    if (TIME_QUESTION.matcher(question).find()) {
      return Optional.of("It is " + TIME.format(now) + " UTC on " + DAY.format(now) + ".");
    }
    if (DATE_QUESTION.matcher(question).find()) {
      return Optional.of(
          "Today is " + DAY.format(now) + " (UTC); the time is " + TIME.format(now) + " UTC.");
    }
    return Optional.empty();
  }

  private static Optional<String> historyAnswer(
      CharSequence question, List<ChatMessage> messages, int latest) {
    if (!HISTORY_QUESTION.matcher(question).find()) {
      return Optional.empty();
    }
    return Optional.of(
        Conversation.userMessageBefore(messages, latest)
            .map(previous ->
                "Before this, you said: \""
                    + Conversation.abbreviate(previous.content(), 500)
                    + "\"")
            .orElse(
                "This is your first message in our conversation, so there is nothing earlier to"
                    + " quote."));
  }

  /** A greeting word first, and at most a few words in all (a word: letters, digits, '). */
  private static Optional<String> greeting(CharSequence question) {
    Matcher word = WORD.matcher(question);
    StringBuilder words = new StringBuilder();
    int count = 0;
    while (word.find()) {
      if (++count > GREETING_MAX_WORDS) {
        return Optional.empty();
      }
      words.append(count > 1 ? " " : "").append(question, word.start(), word.end());
    }
    String lower = words.toString().toLowerCase(Locale.ROOT);
    return GREETING_START.matcher(lower).find() ? Optional.of(GREETING) : Optional.empty();
  }

  private static String explanation(CharSequence question) {
    String restated =
        question.isEmpty()
            ? "nothing (an empty message)"
            : "\"" + Conversation.abbreviate(question, 300) + "\"";
    return "You asked: "
        + restated
        + ". I'm Threadline's offline scripted model, so I cannot really answer that: I only greet,"
        + " work out simple arithmetic, tell the date and time, quote this conversation, and run"
        + " the commands written in backticks in an agent task. A real model gives real answers:"
        + " configure one with THREADLINE_MODEL_PROVIDER (openai or anthropic) and"
        + " THREADLINE_MODEL_API_KEY.";
  }
}
