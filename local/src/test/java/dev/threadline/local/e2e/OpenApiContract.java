package dev.threadline.local.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import dev.threadline.api.openapi.OpenApiDocument;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The API server's OpenAPI document as a check of what the end-to-end tests receive: each
 * response's status must be documented for its operation (or the operation's {@code default}), its
 * media type too, and a JSON body must validate against the documented schema (networknt's JSON
 * Schema validator, OpenAPI 3.1 dialect); each stream event must validate against {@code
 * StreamEvent}. A mismatch throws {@link AssertionError}, failing the test that got the response.
 */
final class OpenApiContract {
  /** The document's made-up address: its {@code $ref}s resolve inside it, nothing is fetched. */
  private static final String BASE = "https://threadline.invalid/openapi.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The document's own fields: the validator loads it whole, but validates against its parts. */
  private static final List<String> DOCUMENT_FIELDS =
      List.of("openapi", "info", "servers", "security", "tags", "paths", "components");

  /** Declared after the constants its constructor reads. */
  static final OpenApiContract INSTANCE = new OpenApiContract();

  private final JsonNode document;
  private final SchemaRegistry registry;
  private final List<Operation> templates;
  private final Set<String> restRoots;
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

  /**
   * A documented path: {@code exact} takes one segment per parameter, {@code rest} lets the last
   * parameter hold slashes (a scoped npm package, {@code @types/node}), tried only when no template
   * matches exactly.
   */
  private record Operation(
      String template, Pattern exact, Pattern rest, int literalSegments, JsonNode item) {}

  private OpenApiContract() {
    try (InputStream yaml = OpenApiDocument.class.getResourceAsStream(OpenApiDocument.RESOURCE)) {
      document = new YAMLMapper().readTree(yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String text = document.toString();
    registry =
        SchemaRegistry.withDefaultDialect(
            Dialect.builder(Dialects.getOpenApi31())
                .keywords(DOCUMENT_FIELDS.stream().map(NonValidationKeyword::new).toList())
                .build(),
            builder ->
                builder
                    .schemas(Map.of(BASE, text))
                    .schemaLoader(loader -> loader.fetchRemoteResources(false))
                    .schemaRegistryConfig(
                        SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    List<Operation> operations = new ArrayList<>();
    document
        .path("paths")
        .fields()
        .forEachRemaining(path -> operations.add(operation(path.getKey(), path.getValue())));
    // The most literal template first: /environments/default before /environments/{id}.
    operations.sort(Comparator.comparingInt(Operation::literalSegments).reversed());
    templates = List.copyOf(operations);
    restRoots =
        templates.stream()
            .map(operation -> "/" + operation.template().substring(1).split("/")[0])
            .collect(Collectors.toSet());
  }

  /**
   * Checks a response of the API: {@code body} is its text for JSON, null when the body is read
   * elsewhere (a stream: its events go through {@link #checkEvent}).
   */
  void checkResponse(
      String method, URI uri, int status, Optional<String> contentType, String body) {
    if (!isRest(uri.getRawPath())) {
      return;
    }
    String what = method + " " + uri.getRawPath() + " answered " + status;
    String mediaType = contentType.map(OpenApiContract::mediaType).orElse("");
    Optional<Operation> found = find(uri.getRawPath());
    if (found.isEmpty() || !found.get().item().has(method.toLowerCase(Locale.ROOT))) {
      // No such operation: only an error may answer, in the error body.
      if (status < 400) {
        throw new AssertionError(what + ", but the OpenAPI document has no such operation");
      }
      if (body != null && mediaType.equals("application/json")) {
        validate(what, "#/components/schemas/Error", body);
      }
      return;
    }
    Operation operation = found.get();
    JsonNode responses = operation.item().path(method.toLowerCase(Locale.ROOT)).path("responses");
    // default stands for the errors an operation does not list one by one, never for a success.
    String key =
        responses.has(Integer.toString(status)) || status < 400
            ? Integer.toString(status)
            : "default";
    if (!responses.has(key)) {
      throw new AssertionError(
          what + ", a status the OpenAPI document does not give " + operation.template());
    }
    String pointer =
        "#/paths/" + escape(operation.template()) + "/" + method.toLowerCase(Locale.ROOT);
    pointer += "/responses/" + key;
    JsonNode response = responses.path(key);
    if (response.has("$ref")) {
      pointer = response.path("$ref").asText();
      response = at(pointer);
    }
    if (mediaType.isEmpty()) {
      return;
    }
    if (!response.path("content").has(mediaType)) {
      throw new AssertionError(
          what + " as " + mediaType + ", a media type the OpenAPI document does not give it");
    }
    if (body != null && mediaType.equals("application/json")) {
      validate(what, pointer + "/content/" + escape(mediaType) + "/schema", body);
    }
  }

  /**
   * Whether a path belongs to the REST surface the document describes: under the first segment of a
   * documented path ({@code /v1}, {@code /environments}, {@code /api}, ...). Other protocols served
   * beside it (the console's files, A2A, MCP) have their own contracts.
   */
  private boolean isRest(String path) {
    return restRoots.stream().anyMatch(root -> path.equals(root) || path.startsWith(root + "/"));
  }

  /** Checks the data of one stream frame. */
  void checkEvent(String data) {
    validate("the stream event " + data, "#/components/schemas/StreamEvent", data);
  }

  private void validate(String what, String pointer, String body) {
    JsonNode json;
    try {
      json = JSON.readTree(body);
    } catch (IOException e) {
      throw new AssertionError(what + " with a body that is not JSON: " + body, e);
    }
    Schema schema =
        schemas.computeIfAbsent(pointer, p -> registry.getSchema(SchemaLocation.of(BASE + p)));
    List<Error> errors = schema.validate(json);
    if (!errors.isEmpty()) {
      throw new AssertionError(
          what
              + " with a body the OpenAPI document ("
              + pointer
              + ") does not allow: "
              + errors
              + "\n"
              + body);
    }
  }

  private Optional<Operation> find(String path) {
    return templates.stream()
        .filter(t -> t.exact().matcher(path).matches())
        .findFirst()
        .or(() -> templates.stream().filter(t -> t.rest().matcher(path).matches()).findFirst());
  }

  private JsonNode at(String pointer) {
    return document.at(pointer.substring(1));
  }

  private static Operation operation(String template, JsonNode item) {
    StringBuilder exact = new StringBuilder();
    StringBuilder rest = new StringBuilder();
    int literals = 0;
    String[] segments = template.substring(1).split("/");
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i];
      exact.append('/');
      rest.append('/');
      if (segment.startsWith("{")) {
        exact.append("[^/]+");
        rest.append(i == segments.length - 1 ? ".+" : "[^/]+");
      } else {
        exact.append(Pattern.quote(segment));
        rest.append(Pattern.quote(segment));
        literals++;
      }
    }
    return new Operation(
        template,
        Pattern.compile(exact.toString()),
        Pattern.compile(rest.toString()),
        literals,
        item);
  }

  /** A JSON pointer's token: {@code ~} and {@code /} escaped. */
  private static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }

  private static String mediaType(String contentType) {
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .strip()
        .toLowerCase(Locale.ROOT);
  }
}
