package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonMergePatchTest {

  /** The examples of RFC 7386, appendix A. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{'a':'b'}                | {'a':'c'}             | {'a':'c'}",
        "{'a':'b'}                | {'b':'c'}             | {'a':'b','b':'c'}",
        "{'a':'b'}                | {'a':null}            | {}",
        "{'a':'b','b':'c'}        | {'a':null}            | {'b':'c'}",
        "{'a':['b']}              | {'a':'c'}             | {'a':'c'}",
        "{'a':'c'}                | {'a':['b']}           | {'a':['b']}",
        "{'a':{'b':'c'}}          | {'a':{'b':'d','c':null}} | {'a':{'b':'d'}}",
        "{'a':[{'b':'c'}]}        | {'a':[1]}             | {'a':[1]}",
        "['a','b']                | ['c','d']             | ['c','d']",
        "{'a':'b'}                | ['c']                 | ['c']",
        "{'a':'foo'}              | null                  | null",
        "{'a':'foo'}              | \"bar\"               | \"bar\"",
        "{'e':null}               | {'a':1}               | {'e':null,'a':1}",
        "[1,2]                    | {'a':'b','c':null}    | {'a':'b'}",
        "{}                       | {'a':{'bb':{'ccc':null}}} | {'a':{'bb':{}}}",
      })
  void followsRfc7386(String target, String patch, String expected) {
    assertThat(JsonMergePatch.apply(json(target), json(patch))).isEqualTo(json(expected));
  }

  @Test
  void listsAreReplacedNotAppended() {
    JsonNode conditions = json("{'status':{'conditions':[{'type':'Ready','status':'False'}]}}");

    JsonNode once = JsonMergePatch.apply(json("{'status':{}}"), conditions);
    JsonNode twice = JsonMergePatch.apply(once, conditions);

    assertThat(twice.at("/status/conditions")).hasSize(1);
  }

  @Test
  void leavesItsInputsUntouched() {
    JsonNode target = json("{'a':{'b':1}}");
    JsonNode patch = json("{'a':{'b':null}}");

    JsonMergePatch.apply(target, patch);

    assertThat(target).isEqualTo(json("{'a':{'b':1}}"));
    assertThat(patch).isEqualTo(json("{'a':{'b':null}}"));
  }

  static JsonNode json(String singleQuoted) {
    return Json.parse(singleQuoted.trim().replace('\'', '"'));
  }
}
