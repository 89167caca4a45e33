package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SimpleJsonPathTest {
  private static final JsonNode OBJECT =
      JsonMergePatchTest.json(
          "{'metadata':{'name':'e1','creationTimestamp':'2026-01-01T00:00:00Z'},"
              + "'spec':{'displayName':'Demo','isDefault':false,'runtimes':{'python':'3.12'}},"
              + "'status':{'conditions':[{'type':'Built','status':'True'},{'type':'Ready','status':'False'}],"
              + "'items':[{'n':1},{'n':2}]}}");

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        ".spec.displayName                                | Demo",
        "{.spec.displayName}                              | Demo",
        ".spec.isDefault                                  | false",
        ".metadata.creationTimestamp                      | 2026-01-01T00:00:00Z",
        ".status.conditions[?(@.type==\"Ready\")].status  | False",
        ".status.conditions[?(@.type=='Built')].status    | True",
        ".status.items[1].n                               | 2",
        ".status.items[-1].n                              | 2",
        ".spec.runtimes['python']                         | 3.12",
      })
  void findsTheFirstMatch(String expression, String expected) {
    assertThat(SimpleJsonPath.compile(expression).first(OBJECT))
        .map(JsonNode::asText)
        .hasValue(expected);
  }

  @Test
  void absentValuesAreEmpty() {
    assertThat(SimpleJsonPath.compile(".status.buildStatus").first(OBJECT)).isEmpty();
    assertThat(
            SimpleJsonPath.compile(".status.conditions[?(@.type==\"Gone\")].status").first(OBJECT))
        .isEmpty();
    assertThat(SimpleJsonPath.compile(".status.items[9].n").first(OBJECT)).isEmpty();
  }

  @Test
  void unsupportedExpressionsAreRejected() {
    assertThatThrownBy(() -> SimpleJsonPath.compile("spec..x["))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SimpleJsonPath.compile(".a[?(@.x > 1)]"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
