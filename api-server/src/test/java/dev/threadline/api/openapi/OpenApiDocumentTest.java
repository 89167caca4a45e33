package dev.threadline.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The OpenAPI document describes exactly what Spring MVC serves: every request mapping of the
 * running API server is a documented path and method, and every documented operation is served; the
 * schemas name the fields the request and response records carry; and the server hands the document
 * out without a key.
 */
class OpenApiDocumentTest {
  private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete");

  /** Spring Boot's error dispatch target: reached only through the servlet container's errors. */
  private static final Set<String> NOT_AN_API = Set.of("/error");

  /** Each schema and the record whose JSON it describes (records by binary name). */
  private static final Map<String, String> SCHEMA_RECORDS =
      Map.ofEntries(
          Map.entry("Error", "errors.ErrorBody"),
          Map.entry("UsageAllowance", "errors.Usage"),
          Map.entry("Success", "common.SuccessResponse"),
          Map.entry("ScheduleList", "paging.ListEnvelope"),
          Map.entry("Thread", "threads.ThreadView"),
          Map.entry("ThreadSummary", "threads.ThreadSummary"),
          Map.entry("ThreadResponse", "threads.ThreadResponse"),
          Map.entry("ThreadScheduleResponse", "threads.ThreadScheduleResponse"),
          Map.entry("ThreadExecutionResponse", "threads.ThreadExecutionResponse"),
          Map.entry("Execution", "threads.ExecutionView"),
          Map.entry("ThreadCreate", "threads.ThreadRequests$Create"),
          Map.entry("MessageInput", "threads.ThreadRequests$MessageInput"),
          Map.entry("Attachment", "threads.ThreadRequests$AttachmentInput"),
          Map.entry("ThreadScheduleInput", "threads.ThreadRequests$ScheduleInput"),
          Map.entry("ThreadUpdate", "threads.ThreadRequests$Update"),
          Map.entry("MessageCreate", "threads.ThreadRequests$PostMessage"),
          Map.entry("Message", "threads.MessageView"),
          Map.entry("ThreadLogResponse", "threads.ThreadLogResponse"),
          Map.entry("DiffEntry", "threads.DiffEntry"),
          Map.entry("DiffsResponse", "threads.DiffsResponse"),
          Map.entry("CancelResponse", "threads.CancelResponse"),
          Map.entry("Schedule", "schedules.ScheduleView"),
          Map.entry("ScheduleSummary", "threads.ScheduleSummary"),
          Map.entry("ScheduleCreate", "schedules.ScheduleRequests$Create"),
          Map.entry("ScheduleUpdate", "schedules.ScheduleRequests$Update"),
          Map.entry("ScheduleResponse", "schedules.ScheduleResponses$Single"),
          Map.entry("ScheduleTriggered", "schedules.ScheduleResponses$Triggered"),
          Map.entry("ScheduleToggled", "schedules.ScheduleResponses$Toggled"),
          Map.entry("WebhookInput", "webhooks.WebhookInput"),
          Map.entry("WebhookView", "webhooks.WebhookView"),
          Map.entry("WebhookDelivery", "webhooks.WebhookDeliveryView"),
          Map.entry("WebhookReference", "webhooks.WebhookDeliveryView$Reference"),
          Map.entry("WebhookDeliveryResponse", "webhooks.WebhookDeliveryView$Single"),
          Map.entry("Environment", "environments.EnvironmentView"),
          Map.entry("EnvironmentSummary", "environments.EnvironmentSummary"),
          Map.entry("EnvironmentCreate", "environments.EnvironmentRequests$Create"),
          Map.entry("EnvironmentUpdate", "environments.EnvironmentRequests$Update"),
          Map.entry("EnvironmentVariable", "environments.EnvironmentView$VariableView"),
          Map.entry("EnvironmentSecret", "environments.EnvironmentView$SecretView"),
          Map.entry("SetupScript", "environments.EnvironmentView$SetupScriptView"),
          Map.entry("Document", "environments.EnvironmentView$DocumentView"),
          Map.entry("Packages", "environments.EnvironmentView$PackagesView"),
          Map.entry("WarmPool", "environments.EnvironmentView$WarmPoolView"),
          Map.entry("WarmPoolInput", "environments.EnvironmentRequests$WarmPoolInput"),
          Map.entry("McpServerView", "environments.EnvironmentView$McpServerView"),
          Map.entry("McpServerInput", "environments.EnvironmentRequests$McpServerInput"),
          Map.entry("EnvironmentResponse", "environments.EnvironmentResponses$Single"),
          Map.entry("EnvironmentDeleted", "environments.EnvironmentResponses$Deleted"),
          Map.entry("AvailableRuntimes", "environments.EnvironmentResponses$AvailableRuntimes"),
          Map.entry("Runtimes", "environments.EnvironmentResponses$Runtimes"),
          Map.entry("PackagesResponse", "environments.EnvironmentResponses$PackagesBody"),
          Map.entry("PackagesInstall", "environments.EnvironmentRequests$InstallPackages"),
          Map.entry("PackagesInstalled", "environments.EnvironmentResponses$Installed"),
          Map.entry("PackageUninstalled", "environments.EnvironmentResponses$Uninstalled"),
          Map.entry("Dockerfile", "environments.EnvironmentResponses$Dockerfile"),
          Map.entry("DockerfileInput", "environments.EnvironmentRequests$Dockerfile"),
          Map.entry(
              "DockerfileValidation", "environments.EnvironmentResponses$DockerfileValidation"),
          Map.entry("BuildAccepted", "environments.EnvironmentResponses$BuildAccepted"),
          Map.entry("BuildState", "environments.EnvironmentResponses$BuildState"),
          Map.entry("BuildLogs", "environments.EnvironmentResponses$BuildLogs"),
          Map.entry("TestBuild", "environments.EnvironmentResponses$TestBuild"),
          Map.entry("TestBuildStarted", "environments.EnvironmentResponses$TestBuildStarted"),
          Map.entry("Agent", "agents.AgentView"),
          Map.entry("AgentCreate", "agents.AgentRequests$Create"),
          Map.entry("AgentUpdate", "agents.AgentRequests$Update"),
          Map.entry("AgentResponse", "agents.AgentResponse"),
          Map.entry("ApprovalPolicy", "agents.ApprovalPolicyView"),
          Map.entry("ApprovalRule", "agents.ApprovalPolicyView$Rule"),
          Map.entry("ApprovalAnswerInput", "threads.ApprovalRequest"),
          Map.entry("ApprovalAnswer", "threads.ApprovalView"),
          Map.entry("UsageResponse", "usage.UsageResponse"),
          Map.entry("HealthReport", "health.HealthReport"));

  private static JsonNode document;

  @BeforeAll
  static void readDocument() throws IOException {
    try (InputStream yaml =
        OpenApiDocumentTest.class.getResourceAsStream(OpenApiDocument.RESOURCE)) {
      document = new YAMLMapper().readTree(yaml);
    }
  }

  @Test
  void everyRequestMappingIsADocumentedOperationAndViceVersa() {
    RequestMappingHandlerMapping mappings =
        SharedApiServer.get()
            .server()
            .bean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class);
    Set<String> served = new TreeSet<>();
    for (RequestMappingInfo mapping : mappings.getHandlerMethods().keySet()) {
      for (PathPattern pattern : mapping.getPathPatternsCondition().getPatterns()) {
        String path = pattern.getPatternString().replace("{*", "{");
        if (NOT_AN_API.contains(path)) {
          continue;
        }
        Set<RequestMethod> methods = mapping.getMethodsCondition().getMethods();
        assertThat(methods).as("%s must name its methods", path).isNotEmpty();
        methods.forEach(method -> served.add(method.name() + " " + path));
      }
    }
    // The MCP server is a servlet of its own (the SDK's streamable HTTP transport), not a mapping:
    // its paths, with the three methods that transport serves.
    ServletRegistrationBean<?> mcp =
        SharedApiServer.get().server().bean("mcpServlet", ServletRegistrationBean.class);
    for (String path : mcp.getUrlMappings()) {
      List.of("GET", "POST", "DELETE").forEach(method -> served.add(method + " " + path));
    }

    assertThat(documentedOperations()).isEqualTo(served);
  }

  @Test
  void everyOperationHasASuccessAndEveryKeyedOneItsRefusals() {
    document
        .path("paths")
        .properties()
        .forEach(path ->
            METHODS.stream()
                .filter(method -> path.getValue().has(method))
                .forEach(method -> {
                  JsonNode operation = path.getValue().path(method);
                  Set<String> statuses = new TreeSet<>();
                  operation.path("responses").fieldNames().forEachRemaining(statuses::add);
                  var described = assertThat(statuses).as("%s %s", method, path.getKey());
                  described.anyMatch(status -> status.startsWith("2"));
                  boolean keyed =
                      !operation.has("security") || !operation.path("security").isEmpty();
                  if (keyed) {
                    described.contains("401", "403", "default");
                  }
                  assertThat(operation.path("operationId").asText())
                      .as("%s %s", method, path.getKey())
                      .isNotBlank();
                }));
  }

  /**
   * A schema's properties (through {@code allOf}) are the JSON names of its record's components: a
   * field added to a record and not to the document, or the reverse, fails here.
   */
  @Test
  void schemasNameTheFieldsTheirRecordsCarry() throws ClassNotFoundException {
    Map<String, String> differences = new TreeMap<>();
    for (Map.Entry<String, String> entry : SCHEMA_RECORDS.entrySet()) {
      Set<String> documented = properties(entry.getKey());
      Set<String> carried = jsonNames(Class.forName("dev.threadline.api." + entry.getValue()));
      if (!documented.equals(carried)) {
        differences.put(
            entry.getKey(),
            "documents " + documented + ", " + entry.getValue() + " carries " + carried);
      }
    }
    assertThat(differences).isEmpty();
  }

  @Test
  void theServerHandsTheDocumentOutWithoutAKey() throws IOException {
    ApiClient api = SharedApiServer.get().api();
    ApiClient.Response yaml = api.get("/openapi.yaml", null);
    assertThat(yaml.status()).isEqualTo(200);
    assertThat(yaml.header("Content-Type")).startsWith("application/yaml");
    try (InputStream committed =
        OpenApiDocumentTest.class.getResourceAsStream(OpenApiDocument.RESOURCE)) {
      assertThat(yaml.body())
          .isEqualTo(new String(committed.readAllBytes(), StandardCharsets.UTF_8));
    }

    ApiClient.Response json = api.get("/openapi.json", null);
    assertThat(json.status()).isEqualTo(200);
    assertThat(json.header("Content-Type")).startsWith("application/json");
    assertThat(new ObjectMapper().readTree(json.body())).isEqualTo(document);
  }

  private static Set<String> documentedOperations() {
    Set<String> documented = new TreeSet<>();
    document
        .path("paths")
        .properties()
        .forEach(path ->
            METHODS.stream()
                .filter(method -> path.getValue().has(method))
                .forEach(method ->
                    documented.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));
    return documented;
  }

  /** The property names of a schema, with those of the schemas it extends through allOf. */
  private static Set<String> properties(String schema) {
    JsonNode node = document.path("components").path("schemas").path(schema);
    assertThat(node.isMissingNode()).as("schema %s", schema).isFalse();
    Set<String> names = new TreeSet<>();
    node.path("properties").fieldNames().forEachRemaining(names::add);
    for (JsonNode part : node.path("allOf")) {
      String ref = part.path("$ref").asText("");
      if (ref.isEmpty()) {
        part.path("properties").fieldNames().forEachRemaining(names::add);
      } else {
        names.addAll(properties(ref.substring(ref.lastIndexOf('/') + 1)));
      }
    }
    return names;
  }

  private static Set<String> jsonNames(Class<?> type) {
    assertThat(type.isRecord()).as("%s is a record", type.getName()).isTrue();
    return Arrays.stream(type.getRecordComponents())
        .map(OpenApiDocumentTest::jsonName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static String jsonName(RecordComponent component) {
    JsonProperty renamed = component.getAnnotation(JsonProperty.class);
    if (renamed == null && component.getAccessor().getAnnotation(JsonProperty.class) != null) {
      renamed = component.getAccessor().getAnnotation(JsonProperty.class);
    }
    return renamed == null || renamed.value().isEmpty() ? component.getName() : renamed.value();
  }
}
