package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** The {@code Status} bodies a Kubernetes API answers errors with. */
final class KubeStatus {
  private KubeStatus() {}

  static ApiResponse failure(int code, String reason, String message) {
    return ApiResponse.json(code, body(code, reason, message, null));
  }

  static ObjectNode body(int code, String reason, String message, ObjectNode details) {
    ObjectNode status = Json.object();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", message);
    if (reason != null) {
      // A Status without a reason (StatusReasonUnknown) leaves the field out.
      status.put("reason", reason);
    }
    if (details != null) {
      status.set("details", details);
    }
    status.put("code", code);
    return status;
  }

  static ApiResponse pathNotFound() {
    return failure(404, "NotFound", "the server could not find the requested resource");
  }

  static ApiResponse notFound(ApiPath path) {
    return ApiResponse.json(
        404,
        body(
            404,
            "NotFound",
            path.qualifiedResource() + " \"" + path.name() + "\" not found",
            details(path)));
  }

  static ApiResponse conflict(ApiPath path) {
    return ApiResponse.json(
        409,
        body(
            409,
            "Conflict",
            "Operation cannot be fulfilled on "
                + path.qualifiedResource()
                + " \""
                + path.name()
                + "\": the object has been modified; please apply your changes to the latest"
                + " version and try again",
            details(path)));
  }

  static ApiResponse alreadyExists(ApiPath path) {
    return ApiResponse.json(
        409,
        body(
            409,
            "AlreadyExists",
            path.qualifiedResource() + " \"" + path.name() + "\" already exists",
            details(path)));
  }

  /** A broken validation rule as one of a 422's field errors. */
  static FieldError fieldError(ValidationRules.Violation violation) {
    return new FieldError(
        "FieldValueInvalid",
        violation.path().isEmpty() ? "<nil>" : violation.path(),
        "Invalid value: \"" + violation.type() + "\": " + violation.message());
  }

  /**
   * One of the field errors of a 422, as Kubernetes' {@code field.Error}: its cause type ({@code
   * FieldValueInvalid}, {@code FieldValueTooLong}…), its field path, and its text without the path.
   */
  record FieldError(String type, String field, String body) {}

  /** A 422 {@code Invalid} with these field errors: {@code Kind "name" is invalid: field: body}. */
  static ApiResponse invalidFields(ResourceType type, String name, List<FieldError> fieldErrors) {
    ObjectNode details = Json.object();
    details.put("name", name);
    details.put("group", type.group());
    details.put("kind", type.kind());
    ArrayNode causes = details.putArray("causes");
    List<String> errors = new ArrayList<>();
    for (FieldError error : fieldErrors) {
      causes
          .addObject()
          .put("reason", error.type())
          .put("message", error.body())
          .put("field", error.field());
      errors.add(error.field() + ": " + error.body());
    }
    String all = errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    String kind = type.group().isEmpty() ? type.kind() : type.kind() + "." + type.group();
    return ApiResponse.json(
        422, body(422, "Invalid", kind + " \"" + name + "\" is invalid: " + all, details));
  }

  static ApiResponse badRequest(String message) {
    return failure(400, "BadRequest", message);
  }

  static ApiResponse methodNotAllowed() {
    return failure(
        405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
  }

  static ApiResponse unsupportedMediaType(String message) {
    return failure(415, "UnsupportedMediaType", message);
  }

  /** Whether a body is already a Status document. */
  static boolean isStatus(String body) {
    if (body == null || body.isBlank()) {
      return false;
    }
    try {
      JsonNode node = Json.parse(body);
      return "Status".equals(Json.text(node, "kind"));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** A Status for a store error that came without one (the mock sends bare 404s). */
  static ApiResponse forCode(int code, ApiPath path) {
    return switch (code) {
      case 404 -> path.name() == null ? pathNotFound() : notFound(path);
      case 409 -> conflict(path);
      case 400 -> badRequest("bad request");
      case 415 -> unsupportedMediaType("the body of the request was in an unknown format");
      case 422 -> failure(422, "Invalid", path.qualifiedResource() + " is invalid");
      default -> failure(code, "InternalError", "the embedded API could not serve the request");
    };
  }

  private static ObjectNode details(ApiPath path) {
    ObjectNode details = Json.object();
    if (path.name() != null) {
      details.put("name", path.name());
    }
    if (!path.group().isEmpty()) {
      details.put("group", path.group());
    }
    details.put("kind", path.resource());
    return details;
  }
}
