package dev.threadline.models.scripted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ArithmeticEvaluatorTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "2 + 3 * 4        | 14",
        "(2 + 3) * 4      | 20",
        "10 - 4 - 3       | 3",
        "2 * 3 / 4        | 1.5",
        "-(1 + 2)         | -3",
        "1.50 + 1.50      | 3",
        "8 ÷ 2 × 3        | 12",
        "100 / 8          | 12.5",
        "2 / 3            | 0.666666666667",
        "0 * 5            | 0"
      })
  void evaluatesWithPrecedence(String expression, String value) {
    assertThat(ArithmeticEvaluator.evaluate(expression)).isEqualTo(value);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "2 +", "(1 + 2", "1 + 2)", "2 ** 3", "Math.exit(0)", "1..2 + 1", "2 + abc"})
  void rejectsAnythingButArithmetic(String expression) {
    assertThatThrownBy(() -> ArithmeticEvaluator.evaluate(expression))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 / 0", "5 / (2 - 2)"})
  void rejectsDivisionByZero(String expression) {
    assertThatThrownBy(() -> ArithmeticEvaluator.evaluate(expression))
        .hasMessageStartingWith("division by zero");
  }
}
