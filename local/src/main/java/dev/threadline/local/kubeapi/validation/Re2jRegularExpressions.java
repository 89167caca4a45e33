package dev.threadline.local.kubeapi.validation;

import com.google.re2j.Pattern;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * Schema {@code pattern}s compiled by RE2J: matching is linear in the input, as with the API
 * server's RE2, so a pattern in a CRD cannot make a write take exponential time. A pattern finds a
 * match anywhere in the value, as JSON Schema and kube-apiserver read it.
 */
final class Re2jRegularExpressions implements RegularExpressionFactory {
  static final Re2jRegularExpressions INSTANCE = new Re2jRegularExpressions();

  private Re2jRegularExpressions() {}

  @Override
  public RegularExpression getRegularExpression(String regex) {
    Pattern pattern = Pattern.compile(regex);
    return value -> pattern.matcher(value).find();
  }
}
