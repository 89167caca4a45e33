package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes of resources, with the fixes the raw store needs to behave like an API server:
 * no query strings on writes, a real RFC 7386 merge patch, resourceVersion checks on {@code
 * /status} updates, RFC 3339 deletion timestamps for objects with finalizers, names from {@code
 * generateName}, and background deletion of dependents (owner references).
 *
 * <p>All writes run one at a time under one lock, so a read-modify-write (merge patch, delete with
 * finalizers) is atomic and a watch can be opened between two writes without missing either.
 */
final class ResourceOperations {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceOperations.class);
  private static final String NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final CrudStore store;
  private final ResourceTypes types;
  private final ReentrantLock writes = new ReentrantLock();

  ResourceOperations(CrudStore store, ResourceTypes types) {
    this.store = store;
    this.types = types;
  }

  /** Runs {@code action} while no write can happen. */
  <T> T exclusive(Supplier<T> action) {
    writes.lock();
    try {
      return action.get();
    } finally {
      writes.unlock();
    }
  }

  ApiResponse get(ApiPath path, ResourceType type, ApiRequest request) {
    CrudStore.Response response = store.get(path.withoutSubresource().path(), request.query());
    if (!response.ok()) {
      return storeError(response, path);
    }
    JsonNode document = Json.parse(response.body());
    if (path.isCollection() && document instanceof ObjectNode list) {
      // The store answers "List"; an API server names the list after its kind.
      list.put("apiVersion", type.groupVersion());
      list.put("kind", type.kind() + "List");
    }
    if (request.wantsTable()) {
      return ApiResponse.json(
          200,
          TableRenderer.render(
              type, document, request.param("includeObject"), true, Instant.now()));
    }
    return ApiResponse.json(200, document);
  }

  ApiResponse create(ApiPath path, ResourceType type, ApiRequest request) {
    if (!path.isCollection() || path.subresource() != null) {
      return KubeStatus.methodNotAllowed();
    }
    ObjectNode object = objectBody(request);
    if (object == null) {
      return KubeStatus.badRequest("the body of the request must be a JSON object");
    }
    String kind = Json.text(object, "kind");
    if (kind != null && !kind.equals(type.kind())) {
      return KubeStatus.badRequest(
          "the kind in the body ("
              + kind
              + ") does not match the resource "
              + path.qualifiedResource());
    }
    object.put("kind", type.kind());
    object.put("apiVersion", type.groupVersion());
    ObjectNode metadata = Json.metadata(object);
    String name = Json.text(metadata, "name");
    String generateName = Json.text(metadata, "generateName");
    if ((name == null || name.isEmpty()) && generateName != null) {
      metadata.put("name", generateName + randomSuffix());
    }
    if (type.kind().equals("CustomResourceDefinition")) {
      CrdStatus.markEstablished(object);
    }
    if (type.kind().equals("Namespace")) {
      // The namespace controller's part: a new namespace is Active until it is deleted.
      object.putObject("status").put("phase", "Active");
    }
    ApiResponse refused = admit(path, type, object);
    if (refused != null) {
      return refused;
    }
    return exclusive(() -> {
      ApiResponse namespaceProblem = namespaceProblem(path);
      if (namespaceProblem != null) {
        return namespaceProblem;
      }
      CrudStore.Response response = store.post(path.path(), Json.write(object));
      afterCrdWrite(type);
      return response.ok()
          ? ApiResponse.json(201, response.body())
          : storeError(response, path.withName(Json.text(metadata, "name")));
    });
  }

  /**
   * As on a cluster, a namespaced object can only be created in a namespace that exists and is not
   * being deleted.
   */
  private ApiResponse namespaceProblem(ApiPath path) {
    if (path.namespace() == null) {
      return null;
    }
    CrudStore.Response namespace = store.get("/api/v1/namespaces/" + path.namespace());
    if (!namespace.ok()) {
      return KubeStatus.notFound(new ApiPath("", "v1", null, "namespaces", path.namespace(), null));
    }
    if (Json.parse(namespace.body()).path("metadata").hasNonNull("deletionTimestamp")) {
      return KubeStatus.failure(
          403,
          "Forbidden",
          path.qualifiedResource()
              + " is forbidden: unable to create new content in namespace "
              + path.namespace()
              + " because it is being terminated");
    }
    return null;
  }

  ApiResponse update(ApiPath path, ResourceType type, ApiRequest request) {
    ObjectNode object = objectBody(request);
    if (object == null) {
      return KubeStatus.badRequest("the body of the request must be a JSON object");
    }
    ApiResponse refused = admit(path, type, object);
    if (refused != null) {
      return refused;
    }
    return exclusive(() -> {
      CrudStore.Response current = store.get(path.withoutSubresource().path());
      if (!current.ok()) {
        return storeError(current, path);
      }
      JsonNode currentObject = Json.parse(current.body());
      String expected = Json.text(object, "metadata", "resourceVersion");
      // The store checks the version on the main resource only; /status must be checked here.
      if (path.isStatus() && expected != null && !expected.equals(resourceVersion(currentObject))) {
        return KubeStatus.conflict(path);
      }
      return write(
          path, type, currentObject, object, () -> store.put(path.path(), Json.write(object)));
    });
  }

  ApiResponse patch(ApiPath path, ResourceType type, ApiRequest request) {
    String contentType = mediaType(request.contentType());
    return switch (contentType) {
      case "application/json-patch+json" -> jsonPatch(path, type, request);
      case "application/merge-patch+json" -> mergePatch(path, type, request, false);
      case "application/strategic-merge-patch+json" -> mergePatch(path, type, request, true);
      case "application/apply-patch+yaml",
          "application/apply-patch+json",
          "application/apply-patch+cbor" ->
          KubeStatus.unsupportedMediaType(
              "server-side apply is not supported by the embedded Kubernetes API of Threadline's"
                  + " local mode; use client-side apply (kubectl apply without --server-side), a"
                  + " merge patch or an update");
      default ->
          KubeStatus.unsupportedMediaType(
              "the body of the request was in an unknown format: " + contentType);
    };
  }

  private ApiResponse jsonPatch(ApiPath path, ResourceType type, ApiRequest request) {
    return exclusive(() -> {
      CrudStore.Response current = store.get(path.withoutSubresource().path());
      if (!current.ok()) {
        return storeError(current, path);
      }
      return write(
          path,
          type,
          Json.parse(current.body()),
          null,
          () -> store.jsonPatch(path.path(), request.bodyText()));
    });
  }

  private ApiResponse mergePatch(
      ApiPath path, ResourceType type, ApiRequest request, boolean strategic) {
    JsonNode patch;
    try {
      patch = Json.parse(request.body());
    } catch (IllegalArgumentException e) {
      return KubeStatus.badRequest(e.getMessage());
    }
    if (!patch.isObject()) {
      return KubeStatus.badRequest("a merge patch must be a JSON object");
    }
    JsonNode effectivePatch = strategic ? JsonMergePatch.withoutStrategicDirectives(patch) : patch;
    return exclusive(() -> {
      CrudStore.Response current = store.get(path.withoutSubresource().path());
      if (!current.ok()) {
        return storeError(current, path);
      }
      JsonNode currentObject = Json.parse(current.body());
      String currentVersion = resourceVersion(currentObject);
      String expected = Json.text(effectivePatch, "metadata", "resourceVersion");
      if (expected != null && !expected.equals(currentVersion)) {
        return KubeStatus.conflict(path);
      }
      ObjectNode merged = (ObjectNode) JsonMergePatch.apply(currentObject, effectivePatch);
      Json.metadata(merged).put("resourceVersion", currentVersion);
      ObjectNode target = merged;
      if (path.isStatus()) {
        // A patch of /status changes the status and nothing else.
        target = ((ObjectNode) currentObject).deepCopy();
        if (merged.has("status")) {
          target.set("status", merged.get("status"));
        } else {
          target.remove("status");
        }
      }
      ApiResponse refused = admit(path, type, target);
      if (refused != null) {
        return refused;
      }
      ObjectNode body = target;
      return write(path, type, currentObject, body, () -> store.put(path.path(), Json.write(body)));
    });
  }

  /**
   * What the API server does to every object written, before storing it: defaults, then the CRD's
   * validation rules (not on the status subresource, whose writes leave the rest unchanged).
   *
   * @return why the object is refused, or null
   */
  private static ApiResponse admit(ApiPath path, ResourceType type, JsonNode object) {
    SchemaDefaults.apply(type.schema(), object);
    SecretStringData.fold(type, object);
    String name = Objects.requireNonNullElse(Json.text(object, "metadata", "name"), "");
    if (type.kind().equals("CustomResourceDefinition")) {
      try {
        ResourceCatalog.typesOf(Json.MAPPER.treeToValue(object, CustomResourceDefinition.class));
      } catch (IllegalArgumentException | JsonProcessingException e) {
        return KubeStatus.failure(
            422,
            "Invalid",
            "CustomResourceDefinition \"" + name + "\" is invalid: " + e.getMessage());
      }
    }
    List<ValidationRules.Violation> violations =
        path.isStatus() ? List.of() : type.rules().check(object);
    return violations.isEmpty() ? null : KubeStatus.invalid(type, name, violations);
  }

  /**
   * Performs a write under the lock and finishes it the way an API server does: a 200 with the
   * object, even when the write removed the last finalizer of a deleted object (the store answers
   * such writes with an empty body); the dependents of a removed object are deleted too.
   */
  private ApiResponse write(
      ApiPath path,
      ResourceType type,
      JsonNode before,
      JsonNode sent,
      Supplier<CrudStore.Response> action) {
    CrudStore.Response response = action.get();
    afterCrdWrite(type);
    if (!response.ok()) {
      return storeError(response, path);
    }
    if (!response.body().isBlank()) {
      return ApiResponse.json(200, response.body());
    }
    // Empty body: the object is gone (its last finalizer was removed while it was being deleted).
    collectDependents(uid(before));
    return ApiResponse.json(200, sent != null ? sent : before);
  }

  ApiResponse delete(ApiPath path, ResourceType type, ApiRequest request) {
    if (path.subresource() != null) {
      return KubeStatus.methodNotAllowed();
    }
    if (path.isCollection()) {
      return exclusive(() -> deleteCollection(path, type, request));
    }
    JsonNode options = null;
    if (request.hasBody()) {
      try {
        options = Json.parse(request.body());
      } catch (IllegalArgumentException e) {
        return KubeStatus.badRequest("DeleteOptions: " + e.getMessage());
      }
    }
    JsonNode deleteOptions = options;
    return exclusive(() -> deleteOne(path, type, deleteOptions));
  }

  private ApiResponse deleteCollection(ApiPath path, ResourceType type, ApiRequest request) {
    CrudStore.Response list = store.get(path.path(), request.query());
    if (!list.ok()) {
      return storeError(list, path);
    }
    ObjectNode result = (ObjectNode) Json.parse(list.body());
    ArrayNode deleted = Json.MAPPER.createArrayNode();
    for (JsonNode item : result.path("items")) {
      ApiPath itemPath =
          new ApiPath(
              path.group(),
              path.version(),
              Json.text(item, "metadata", "namespace"),
              path.resource(),
              Json.text(item, "metadata", "name"),
              null);
      if (!type.namespaced()) {
        itemPath =
            new ApiPath(path.group(), path.version(), null, path.resource(), itemPath.name(), null);
      }
      ApiResponse one = deleteOne(itemPath, type, null);
      if (one.code() == 200) {
        deleted.add(Json.parse(one.body()));
      }
    }
    result.set("items", deleted);
    result.put("apiVersion", type.groupVersion());
    result.put("kind", type.kind() + "List");
    return ApiResponse.json(200, result);
  }

  /** Deletes one object; with finalizers it is only marked, and goes once they are removed. */
  private ApiResponse deleteOne(ApiPath path, ResourceType type, JsonNode options) {
    CrudStore.Response current = store.get(path.path());
    if (!current.ok()) {
      return storeError(current, path);
    }
    ObjectNode object = (ObjectNode) Json.parse(current.body());
    if (options != null) {
      String expectedVersion = Json.text(options, "preconditions", "resourceVersion");
      String expectedUid = Json.text(options, "preconditions", "uid");
      if ((expectedVersion != null && !expectedVersion.equals(resourceVersion(object)))
          || (expectedUid != null && !expectedUid.equals(uid(object)))) {
        return KubeStatus.conflict(path);
      }
    }
    JsonNode finalizers = object.path("metadata").path("finalizers");
    if (finalizers.isArray() && !finalizers.isEmpty()) {
      if (object.path("metadata").hasNonNull("deletionTimestamp")) {
        return ApiResponse.json(200, object);
      }
      // The store would mark it with a local time without zone, which kubectl cannot parse.
      ObjectNode metadata = Json.metadata(object);
      metadata.put("deletionTimestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
      metadata.put("deletionGracePeriodSeconds", 0);
      CrudStore.Response marked = store.put(path.path(), Json.write(object));
      return marked.ok() ? ApiResponse.json(200, marked.body()) : storeError(marked, path);
    }
    CrudStore.Response deleted = store.delete(path.path(), Map.of());
    afterCrdWrite(type);
    if (!deleted.ok()) {
      return storeError(deleted, path);
    }
    collectDependents(uid(object));
    if (type.group().isEmpty() && type.plural().equals("namespaces")) {
      deleteNamespaceContents(path.name());
    }
    return ApiResponse.json(200, object);
  }

  /**
   * Background cascading deletion: deletes every object that names {@code ownerUid} in its owner
   * references, as Kubernetes' garbage collector does. Runs under the write lock.
   */
  private void collectDependents(String ownerUid) {
    if (ownerUid == null) {
      return;
    }
    deleteAll(
        item -> {
          for (JsonNode owner : item.path("metadata").path("ownerReferences")) {
            if (ownerUid.equals(Json.text(owner, "uid"))) {
              return true;
            }
          }
          return false;
        },
        "owner " + ownerUid + " is gone");
  }

  /** What the namespace controller does: a deleted namespace takes its objects along. */
  private void deleteNamespaceContents(String namespace) {
    deleteAll(
        item -> namespace.equals(Json.text(item, "metadata", "namespace")),
        "namespace " + namespace + " is gone");
  }

  private void deleteAll(Predicate<JsonNode> doomed, String why) {
    List<JsonNode> matches = new ArrayList<>();
    // "/" matches every stored object: the store's catch-all answer, used on purpose here.
    for (JsonNode item : Json.parse(store.get("/").body()).path("items")) {
      if (doomed.test(item)) {
        matches.add(item);
      }
    }
    for (JsonNode item : matches) {
      String apiVersion = Json.text(item, "apiVersion");
      String kind = Json.text(item, "kind");
      if (apiVersion == null || kind == null) {
        continue;
      }
      String group =
          apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
      String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
      types.catalog().resources(group, version).stream()
          .filter(t -> t.kind().equals(kind))
          .findFirst()
          .ifPresent(t -> {
            ApiPath path =
                new ApiPath(
                    group,
                    version,
                    t.namespaced() ? Json.text(item, "metadata", "namespace") : null,
                    t.plural(),
                    Json.text(item, "metadata", "name"),
                    null);
            LOG.debug("Deleting {} {}/{}: {}", kind, path.namespace(), path.name(), why);
            deleteOne(path, t, null);
          });
    }
  }

  private void afterCrdWrite(ResourceType type) {
    if (type.kind().equals("CustomResourceDefinition")
        && type.group().equals("apiextensions.k8s.io")) {
      types.refresh();
    }
  }

  /**
   * The store's error as the API server words it. The store sends bare 404s and labels every error
   * it does describe "Invalid", even a conflict or an existing name.
   */
  static ApiResponse storeError(CrudStore.Response response, ApiPath path) {
    return switch (response.code()) {
      case 409 ->
          response.body().contains("already exists")
              ? KubeStatus.alreadyExists(path)
              : KubeStatus.conflict(path);
      case 404 -> KubeStatus.forCode(404, path);
      case 400 -> KubeStatus.badRequest(messageOf(response, "bad request"));
      case 422 ->
          KubeStatus.failure(
              422, "Invalid", messageOf(response, path.qualifiedResource() + " is invalid"));
      default ->
          KubeStatus.isStatus(response.body())
              ? ApiResponse.json(response.code(), response.body())
              : KubeStatus.forCode(response.code(), path);
    };
  }

  private static String messageOf(CrudStore.Response response, String fallback) {
    if (!KubeStatus.isStatus(response.body())) {
      return fallback;
    }
    String message = Json.text(Json.parse(response.body()), "message");
    return message == null || message.isEmpty() ? fallback : message;
  }

  private static ObjectNode objectBody(ApiRequest request) {
    try {
      JsonNode node = Json.parse(request.body());
      return node instanceof ObjectNode object ? object : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String mediaType(String contentType) {
    if (contentType == null) {
      return "application/json-patch+json";
    }
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .trim()
        .toLowerCase(Locale.ROOT);
  }

  private static String resourceVersion(JsonNode object) {
    return Json.text(object, "metadata", "resourceVersion");
  }

  private static String uid(JsonNode object) {
    return Json.text(object, "metadata", "uid");
  }

  private static String randomSuffix() {
    StringBuilder sb = new StringBuilder(5);
    for (int i = 0; i < 5; i++) {
      sb.append(NAME_ALPHABET.charAt(RANDOM.nextInt(NAME_ALPHABET.length())));
    }
    return sb.toString();
  }
}
