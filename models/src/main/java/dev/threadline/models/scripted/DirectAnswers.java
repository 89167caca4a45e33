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

  private static final Pattern GREETING_START =
      Pattern.compile(
          "^(hi|hello|hey|hiya|howdy|hallo|greetings|yo|good"
              + " (morning|afternoon|evening|day)|morning|evening)\\b");

  /**
   * A greeting plus a few words ("hello there, how are you") is still a greeting; more is a
   * question.
   */
  private static final int GREETING_MAX_WORDS = 6;

  private static final Pattern ARITHMETIC_PREFIX =
      Pattern.compile(
          "\\b(what\\s+is|what's|whats|calculate|compute|evaluate|how\\s+much\\s+is|solve)\\s+(.*)$",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern EXPRESSION =
      Pattern.compile("[-+(]*\\s*[\\d.][\\d\\s.+\\-*/x×÷()]*");
  private static final Pattern BINARY_OPERATOR =
      Pattern.compile("[\\d.)]\\s*[-+*/x×÷]\\s*[-+(\\d.]");

  private static final Pattern TIME_QUESTION =
      Pattern.compile(
          "\\bwhat\\s+time\\b|\\bwhat('s|\\s+is)\\s+the\\s+time\\b|\\bcurrent\\s+time\\b|\\btime\\s+is\\s+it\\b");
  private static final Pattern DATE_QUESTION =
      Pattern.compile(
          "\\bwhat\\s+(day|date)\\b|\\bwhat('s|\\s+is)\\s+(the\\s+|today's\\s+)?(date|day)\\b"
              + "|\\bcurrent\\s+date\\b|\\btoday'?s\\s+date\\b|\\bwhich\\s+day\\b");
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("EEEE, d MMMM yyyy", Locale.ENGLISH);
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm", Locale.ENGLISH);

  private static final Pattern HISTORY_QUESTION =
      Pattern.compile(
          "\\bwhat\\s+(did|have)\\s+i\\s+(just\\s+)?(say|said|ask|asked|write|wrote|type|typed)\\b"
              + "|\\bmy\\s+(previous|last|earlier|first)\\s+(message|question)\\b"
              + "|\\bwhat\\s+was\\s+my\\s+(previous|last)\\b");

  private final Clock clock;

  DirectAnswers(Clock clock) {
    this.clock = clock;
  }

  String answer(List<ChatMessage> messages) {
    int latest = Conversation.latestUserIndex(messages);
    if (latest < 0) {
      return "There is no question to answer yet: the conversation has no user message.";
    }
    String question = messages.get(latest).content().strip();
    String lower = question.toLowerCase(Locale.ROOT);
    return arithmetic(question)
        .or(() -> clockAnswer(lower))
        .or(() -> historyAnswer(lower, messages, latest))
        .or(() -> greeting(lower))
        .orElseGet(() -> explanation(question));
  }

  private Optional<String> arithmetic(String question) {
    String body = question.replaceAll("[?=.!\\s]+$", "");
    Matcher prefixed = ARITHMETIC_PREFIX.matcher(body);
    // Only a question that asks for a result, or a bare expression: "I have 2-3 apples" is not
    // maths.
    boolean asked = prefixed.find();
    String candidates = asked ? prefixed.group(2) : body;
    boolean bare = !asked;
    Matcher expressions = EXPRESSION.matcher(candidates);
    String best = null;
    while (expressions.find()) {
      String expression = expressions.group().strip().replaceAll("\\s+", " ");
      if (BINARY_OPERATOR.matcher(expression).find()
          && (best == null || expression.length() > best.length())) {
        best = expression;
      }
    }
    if (best == null || (bare && !best.equals(candidates.strip().replaceAll("\\s+", " ")))) {
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

  private Optional<String> clockAnswer(String lower) {
    ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
    if (TIME_QUESTION.matcher(lower).find()) {
      return Optional.of("It is " + TIME.format(now) + " UTC on " + DAY.format(now) + ".");
    }
    if (DATE_QUESTION.matcher(lower).find()) {
      return Optional.of(
          "Today is " + DAY.format(now) + " (UTC); the time is " + TIME.format(now) + " UTC.");
    }
    return Optional.empty();
  }

  private static Optional<String> historyAnswer(
      String lower, List<ChatMessage> messages, int latest) {
    if (!HISTORY_QUESTION.matcher(lower).find()) {
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

  private static Optional<String> greeting(String lower) {
    String words = lower.replaceAll("[^\\p{L}\\p{N}' ]+", " ").strip();
    boolean greets =
        GREETING_START.matcher(words).find() && words.split("\\s+").length <= GREETING_MAX_WORDS;
    return greets ? Optional.of(GREETING) : Optional.empty();
  }

  private static String explanation(String question) {
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
