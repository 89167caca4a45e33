package dev.threadline.models.scripted;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Evaluates arithmetic: numbers (with decimals), {@code + - * /} (also {@code x × ÷}), unary minus
 * and parentheses. A hand-written recursive-descent parser over {@link BigDecimal}, so nothing but
 * arithmetic can ever run and {@code 0.1 + 0.2} is {@code 0.3}.
 *
 * <pre>
 * expression := term (('+' | '-') term)*
 * term       := factor (('*' | '/') factor)*
 * factor     := ('-' | '+') factor | number | '(' expression ')'
 * </pre>
 */
public final class ArithmeticEvaluator {

  /** Precision of divisions that do not terminate (1/3): plenty for a chat answer. */
  private static final MathContext DIVISION = new MathContext(12, RoundingMode.HALF_EVEN);

  /** Expressions longer than this are not "simple arithmetic"; also bounds recursion depth. */
  private static final int MAX_LENGTH = 200;

  private final String text;
  private int pos;

  private ArithmeticEvaluator(String text) {
    this.text = text;
  }

  /**
   * The value of {@code expression}, written without exponent and trailing zeros ({@code 14},
   * {@code 0.3}, {@code 0.333333333333}).
   *
   * @throws IllegalArgumentException when it is not a well-formed expression or divides by zero
   */
  public static String evaluate(String expression) {
    return format(value(expression));
  }

  /** The value of {@code expression}; see {@link #evaluate(String)}. */
  public static BigDecimal value(String expression) {
    if (expression == null || expression.isBlank()) {
      throw new IllegalArgumentException("empty expression");
    }
    if (expression.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("expression longer than " + MAX_LENGTH + " characters");
    }
    ArithmeticEvaluator parser = new ArithmeticEvaluator(expression);
    BigDecimal result = parser.expression();
    parser.skipSpaces();
    if (parser.pos != parser.text.length()) {
      throw parser.error("unexpected '" + parser.text.charAt(parser.pos) + "'");
    }
    return result;
  }

  static String format(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    return stripped.signum() == 0 ? "0" : stripped.toPlainString();
  }

  private BigDecimal expression() {
    BigDecimal result = term();
    while (true) {
      if (accept('+')) {
        result = result.add(term());
      } else if (accept('-')) {
        result = result.subtract(term());
      } else {
        return result;
      }
    }
  }

  private BigDecimal term() {
    BigDecimal result = factor();
    while (true) {
      if (accept('*') || accept('x') || accept('X') || accept('×')) {
        result = result.multiply(factor());
      } else if (accept('/') || accept('÷')) {
        BigDecimal divisor = factor();
        if (divisor.signum() == 0) {
          throw error("division by zero");
        }
        result = result.divide(divisor, DIVISION);
      } else {
        return result;
      }
    }
  }

  private BigDecimal factor() {
    if (accept('-')) {
      return factor().negate();
    }
    if (accept('+')) {
      return factor();
    }
    if (accept('(')) {
      BigDecimal inner = expression();
      if (!accept(')')) {
        throw error("missing ')'");
      }
      return inner;
    }
    return number();
  }

  private BigDecimal number() {
    skipSpaces();
    int start = pos;
    while (pos < text.length()
        && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
      pos++;
    }
    if (start == pos) {
      throw error(pos < text.length() ? "unexpected '" + text.charAt(pos) + "'" : "unexpected end");
    }
    try {
      return new BigDecimal(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("malformed number '" + text.substring(start, pos) + "'");
    }
  }

  private boolean accept(char c) {
    skipSpaces();
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException(problem + " at position " + pos + " of '" + text + "'");
  }
}
