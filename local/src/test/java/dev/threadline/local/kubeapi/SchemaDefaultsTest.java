package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class SchemaDefaultsTest {
  private static final JsonNode SCHEMA =
      JsonMergePatchTest.json(
          "{'type':'object','properties':{'spec':{'type':'object','properties':{"
              + "'isDefault':{'type':'boolean','default':false},"
              + "'internetAccess':{'type':'boolean','default':true},"
              + "'limits':{'type':'object','default':{},'properties':{'cpu':{'type':'string','default':'1'}}},"
              + "'servers':{'type':'array','items':{'type':'object','properties':{'port':{'type':'integer','default':80}}}},"
              + "'env':{'type':'object','additionalProperties':{'type':'object','properties':{'secret':{'type':'boolean','default':false}}}}"
              + "}}}}");

  @Test
  void fillsAbsentPropertiesAtAnyDepth() {
    JsonNode object =
        JsonMergePatchTest.json(
            "{'spec':{'internetAccess':false,'servers':[{'port':8080},{}],'env':{'A':{}}}}");

    SchemaDefaults.apply(SCHEMA, object);

    assertThat(object)
        .isEqualTo(
            JsonMergePatchTest.json(
                "{'spec':{'internetAccess':false,'servers':[{'port':8080},{'port':80}],'env':{'A':{'secret':false}},"
                    + "'isDefault':false,'limits':{'cpu':'1'}}}"));
  }

  @Test
  void leavesObjectsWithoutASchemaAlone() {
    JsonNode object = JsonMergePatchTest.json("{'spec':{}}");

    SchemaDefaults.apply(null, object);

    assertThat(object).isEqualTo(JsonMergePatchTest.json("{'spec':{}}"));
  }
}
