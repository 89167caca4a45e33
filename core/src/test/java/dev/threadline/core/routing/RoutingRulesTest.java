package dev.threadline.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.testing.ReadCountingText;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class RoutingRulesTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          Hello!                                            | DIRECT   | greeting
          good morning team                                 | DIRECT   | greeting
          What is a Kubernetes operator?                    | DIRECT   | question
          Explain the difference between TCP and UDP        | DIRECT   | question
          Can you explain how git rebase works?             | DIRECT   | question
          the sky is blue                                   | DIRECT   | no command
          Run `ls -la` and `echo hi`                        | COMPUTER | command
          $ npm test                                        | COMPUTER | command
          please create a Flask app                         | COMPUTER | create
          Can you fix the failing test in the repo          | COMPUTER | fix
          Install numpy and plot a chart                    | COMPUTER | install
          Thanks. Now write a README for the project        | COMPUTER | write
          the bug is somewhere in src/app.py                | COMPUTER | src/app.py
          What does main.go do?                             | DIRECT   | question
          """)
  void routesByTheFirstMatchingRule(String message, Route route, String reasonFragment) {
    RoutingDecision decision = RoutingRules.route(message, false);
    assertThat(decision.route()).isEqualTo(route);
    assertThat(decision.reason()).contains(reasonFragment);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          here is my data        | COMPUTER
          what is in this file?  | DIRECT
          """)
  void attachmentsSendWorkToTheComputerButNotQuestions(String message, Route route) {
    assertThat(RoutingRules.route(message, true).route()).isEqualTo(route);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''
          '   '
          """)
  void emptyMessagesAreAnsweredDirectly(String message) {
    assertThat(RoutingRules.route(message, false).route()).isEqualTo(Route.DIRECT);
  }

  /** Inputs that made a backtracking pattern re-read the message from every start position. */
  static Stream<Arguments> repeatedUnits() {
    return Stream.of(
        Arguments.of("a.", Route.DIRECT),
        Arguments.of("a/", Route.DIRECT),
        Arguments.of("a-a.", Route.DIRECT),
        Arguments.of("\n", Route.DIRECT),
        Arguments.of("\r", Route.DIRECT),
        Arguments.of(" \n", Route.DIRECT),
        Arguments.of("`a", Route.COMPUTER),
        Arguments.of("please ", Route.DIRECT),
        Arguments.of("a.py.", Route.COMPUTER),
        Arguments.of(" ", Route.DIRECT),
        Arguments.of("what is the time ", Route.DIRECT),
        Arguments.of("word ", Route.DIRECT),
        Arguments.of("1", Route.DIRECT),
        Arguments.of("1 + ", Route.DIRECT),
        Arguments.of("(", Route.DIRECT),
        Arguments.of("'", Route.DIRECT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("repeatedUnits")
  void readsEachCharacterOfAHugeMessageABoundedNumberOfTimes(String unit, Route route) {
    String message = "x" + unit.repeat(200_000 / unit.length()) + "x";
    long budget = 64L * message.length();

    var text = new ReadCountingText(message, budget);

    assertThat(RoutingRules.route(text, false).route()).isEqualTo(route);
    assertThat(text.reads()).isLessThanOrEqualTo(budget);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          open config.local.yaml and check it | config.local.yaml
          see ./scripts/run.sh.               | ./scripts/run.sh
          the file notes.md-old               | notes.md
          """)
  void findsTheFileAReferenceNames(String message, String file) {
    assertThat(FileReferences.first(message)).contains(file);
  }

  @ParameterizedTest
  @CsvSource({"archive.tar.gz", "v1.2.3", "a.pyc", "name.", ".py"})
  void findsNoFileWithoutAKnownExtension(String message) {
    assertThat(FileReferences.first(message)).isEmpty();
  }
}
