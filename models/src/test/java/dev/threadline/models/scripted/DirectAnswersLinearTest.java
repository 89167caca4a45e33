package dev.threadline.models.scripted;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.testing.ReadCountingText;
import dev.threadline.models.ChatMessage;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scripted model's direct answers read a huge message a bounded number of times per character:
 * the test counts the reads (a quadratic scan stops at the budget instead of running for minutes).
 * Before, {@code "what is the time" + 40,000 spaces + "x"} took 34 s of CPU.
 */
class DirectAnswersLinearTest {
  private static final int SIZE = 200_000;

  private final DirectAnswers answers =
      new DirectAnswers(Clock.fixed(Instant.parse("2026-11-03T14:05:09Z"), ZoneOffset.UTC));

  /** Each shape: a message of about 200k characters, and a word its answer holds. */
  static Stream<Arguments> shapes() {
    return Stream.of(
        Arguments.of("what is the time" + " ".repeat(SIZE) + "x", "UTC"),
        Arguments.of("what is 2 + 2" + " ".repeat(SIZE) + "x", "You asked"),
        Arguments.of("hello" + " ".repeat(SIZE) + "x", "Hello!"),
        Arguments.of(" ".repeat(SIZE) + "x", "You asked"),
        Arguments.of("x" + " ".repeat(SIZE) + "?", "You asked"),
        Arguments.of("what" + " ".repeat(SIZE) + "x", "You asked"),
        Arguments.of("what is" + " ".repeat(SIZE) + "x", "You asked"),
        Arguments.of("what is ".repeat(SIZE / 8) + "x", "You asked"),
        Arguments.of("what time ".repeat(SIZE / 10), "UTC"),
        Arguments.of("hello ".repeat(SIZE / 6), "You asked"),
        Arguments.of("word ".repeat(SIZE / 5), "You asked"),
        Arguments.of("1".repeat(SIZE), "You asked"),
        Arguments.of("what is " + "1".repeat(SIZE) + "x", "You asked"),
        Arguments.of("1 ".repeat(SIZE / 2), "You asked"),
        Arguments.of("1 + ".repeat(SIZE / 4) + "1", "You asked"),
        Arguments.of("what is " + "(".repeat(SIZE) + "x", "You asked"),
        Arguments.of("-".repeat(SIZE) + "1", "You asked"),
        Arguments.of("+ ".repeat(SIZE / 2) + "x", "You asked"),
        Arguments.of("?".repeat(SIZE) + "x", "You asked"),
        Arguments.of("!.".repeat(SIZE / 2) + " x", "You asked"),
        Arguments.of(" \n".repeat(SIZE / 2) + "x", "You asked"),
        Arguments.of("what did i say" + " ".repeat(SIZE) + "x", "first message"),
        Arguments.of("my last" + " ".repeat(SIZE) + "x", "You asked"),
        Arguments.of("'".repeat(SIZE), "You asked"));
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void readsEachCharacterOfAHugeMessageABoundedNumberOfTimes(String message, String answered) {
    long budget = 64L * message.length();
    var text = new ReadCountingText(message, budget);

    String answer = answers.answer(text, List.of(ChatMessage.user(message)), 0);

    assertThat(answer).contains(answered);
    assertThat(text.reads()).isLessThanOrEqualTo(budget);
  }
}
