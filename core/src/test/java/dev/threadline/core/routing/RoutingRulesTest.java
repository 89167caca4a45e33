package dev.threadline.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
}
