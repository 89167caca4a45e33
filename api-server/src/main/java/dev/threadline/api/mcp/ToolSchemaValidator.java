package dev.threadline.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.List;
import java.util.Map;

/**
 * JSON Schema checks for the MCP server (its tools' schemas when it starts, results against an
 * output schema) by networknt's validator in the version the build pins for everything (2.x, on
 * Jackson 2): the SDK's own validator is written against networknt 3.x and fails with it.
 */
final class ToolSchemaValidator implements JsonSchemaValidator {
  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(Dialects.getDraft202012());
  private static final SchemaLocation DRAFT_2020_12 =
      SchemaLocation.of("https://json-schema.org/draft/2020-12/schema");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    JsonNode content = JSON.valueToTree(structuredContent);
    return response(REGISTRY.getSchema(JSON.valueToTree(schema)), content, content.toString());
  }

  @Override
  public ValidationResponse validateSchema(Map<String, Object> schema) {
    return response(REGISTRY.getSchema(DRAFT_2020_12), JSON.valueToTree(schema), null);
  }

  private static ValidationResponse response(Schema schema, JsonNode value, String valid) {
    List<Error> errors = schema.validate(value);
    return errors.isEmpty()
        ? ValidationResponse.asValid(valid)
        : ValidationResponse.asInvalid("Validation failed: " + errors);
  }
}
