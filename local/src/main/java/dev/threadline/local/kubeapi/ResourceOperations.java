package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.apply.FieldManager;
import dev.threadline.local.kubeapi.apply.MergeSchema;
import dev.threadline.local.kubeapi.patch.StrategicMergePatch;
import dev.threadline.local.kubeapi.store.FieldSelector;
import dev.threadline.local.kubeapi.store.LabelSelector;
import dev.threadline.local.kubeapi.store.ListPage;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.Selection;
import dev.threadline.local.kubeapi.store.StoreException;
import dev.threadline.local.kubeapi.store.StoredObject;
import dev.threadline.local.kubeapi.validation.SchemaValidation;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.zjsonpatch.JsonPatch;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
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

  private final ObjectStore store;
  private final ResourceTypes types;
  private final ReentrantLock writes = new ReentrantLock();

  ResourceOperations(ObjectStore store, ResourceTypes types) {
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
    JsonNode document;
    if (path.isCollection()) {
      ListPage page;
      try {
        page =
            store.list(
                selection(path, type, request),
                limit(request.param("limit")),
                request.param("continue"));
      } catch (IllegalArgumentException e) {
        return KubeStatus.badRequest(e.getMessage());
      }
      document = listDocument(type, page);
    } else {
      Optional<StoredObject> found = store.get(path.key());
      if (found.isEmpty()) {
        return KubeStatus.notFound(path);
      }
      document = found.get().object();
    }
    if (request.wantsTable()) {
      return ApiResponse.json(
          200,
          TableRenderer.render(
              type, document, request.param("includeObject"), true, Instant.now()));
    }
    return ApiResponse.json(200, document);
  }

  /**
   * The objects a list or watch request picks: its path's namespace and its selectors.
   *
   * @throws IllegalArgumentException for a selector that does not parse, or that names a field the
   *     resource cannot be selected by (a cluster's message: "field label not supported: …")
   */
  static Selection selection(ApiPath path, ResourceType type, ApiRequest request) {
    FieldSelector fields = FieldSelector.parse(request.param("fieldSelector"));
    String unsupported = type.unselectableField(fields);
    if (unsupported != null) {
      throw new IllegalArgumentException("field label not supported: " + unsupported);
    }
    return new Selection(
        path.key().resource(),
        path.namespace(),
        LabelSelector.parse(request.param("labelSelector")),
        fields);
  }

  private static int limit(String value) {
    if (value == null || value.isEmpty()) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(value));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("limit: must be a number, not \"" + value + "\"");
    }
  }

  private static ObjectNode listDocument(ResourceType type, ListPage page) {
    ObjectNode list = Json.object();
    list.put("apiVersion", type.groupVersion());
    list.put("kind", type.kind() + "List");
    ObjectNode metadata = list.putObject("metadata");
    metadata.put("resourceVersion", Long.toString(page.revision()));
    if (page.continueToken() != null) {
      metadata.put("continue", page.continueToken());
    }
    ArrayNode items = list.putArray("items");
    page.items().forEach(items::add);
    return list;
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
    ApiResponse unfit = prepareNew(path, type, object);
    if (unfit != null) {
      return unfit;
    }
    ApiResponse refused = admit(path, type, object, request);
    if (refused != null) {
      return refused;
    }
    ApiPath objectPath = path.withName(Json.text(metadata, "name"));
    return exclusive(() -> {
      ApiResponse namespaceProblem = namespaceProblem(path);
      if (namespaceProblem != null) {
        return namespaceProblem;
      }
      try {
        FieldManager.recordUpdate(type.schema(), null, object, request.fieldManager(), null);
        StoredObject created = store.create(objectPath.key(), object);
        return ApiResponse.json(201, created.object());
      } catch (StoreException e) {
        return storeError(e, objectPath);
      } finally {
        afterCrdWrite(type);
      }
    });
  }

  /** What a new object gets before it is checked and stored; returns why it cannot be, or null. */
  private static ApiResponse prepareNew(ApiPath path, ResourceType type, ObjectNode object) {
    ApiResponse unfit = ObjectLifecycle.prepareCreate(path, type, object);
    if (unfit != null) {
      return unfit;
    }
    if (type.kind().equals("CustomResourceDefinition")) {
      CrdStatus.markEstablished(object);
    }
    if (type.kind().equals("Namespace")) {
      // The namespace controller's part: a new namespace is Active until it is deleted.
      object.putObject("status").put("phase", "Active");
    }
    return null;
  }

  /**
   * As on a cluster, a namespaced object can only be created in a namespace that exists and is not
   * being deleted.
   */
  private ApiResponse namespaceProblem(ApiPath path) {
    if (path.namespace() == null) {
      return null;
    }
    ApiPath namespacePath = new ApiPath("", "v1", null, "namespaces", path.namespace(), null);
    Optional<StoredObject> namespace = store.get(namespacePath.key());
    if (namespace.isEmpty()) {
      return KubeStatus.notFound(namespacePath);
    }
    if (namespace.get().object().path("metadata").hasNonNull("deletionTimestamp")) {
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
    ApiResponse refused = admit(path, type, object, request);
    if (refused != null) {
      return refused;
    }
    return exclusive(() -> {
      Optional<StoredObject> current = store.get(path.key());
      if (current.isEmpty()) {
        return KubeStatus.notFound(path);
      }
      return replace(path, type, current.get(), object, request);
    });
  }

  ApiResponse patch(ApiPath path, ResourceType type, ApiRequest request) {
    String contentType = mediaType(request.contentType());
    return switch (contentType) {
      case "application/json-patch+json" -> jsonPatch(path, type, request);
      case "application/merge-patch+json" -> mergePatch(path, type, request, false);
      case "application/strategic-merge-patch+json" ->
          type.schema() != null
              // As kube-apiserver: custom resources have no patch merge keys to merge by.
              ? KubeStatus.unsupportedMediaType(
                  "the body of the request was in an unknown format - accepted media types"
                      + " include: application/json-patch+json, application/merge-patch+json,"
                      + " application/apply-patch+yaml")
              : mergePatch(path, type, request, true);
      case "application/apply-patch+yaml", "application/apply-patch+json" ->
          apply(path, type, request);
      default ->
          KubeStatus.unsupportedMediaType(
              "the body of the request was in an unknown format: " + contentType);
    };
  }

  private ApiResponse jsonPatch(ApiPath path, ResourceType type, ApiRequest request) {
    JsonNode patch;
    try {
      patch = Json.parse(request.body());
    } catch (IllegalArgumentException e) {
      return KubeStatus.badRequest(e.getMessage());
    }
    if (!patch.isArray()) {
      return KubeStatus.badRequest("a JSON patch must be a JSON array of operations");
    }
    return exclusive(() -> {
      Optional<StoredObject> current = store.get(path.key());
      if (current.isEmpty()) {
        return KubeStatus.notFound(path);
      }
      JsonNode patched;
      try {
        patched = JsonPatch.apply(patch, current.get().object());
      } catch (RuntimeException e) {
        return KubeStatus.failure(
            422, "Invalid", "the JSON patch cannot be applied: " + e.getMessage());
      }
      if (!(patched instanceof ObjectNode target)) {
        return KubeStatus.badRequest("a JSON patch must leave an object");
      }
      ApiResponse refused = admit(path, type, target, request);
      return refused != null ? refused : replace(path, type, current.get(), target, request);
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
    JsonNode effectivePatch = patch;
    return exclusive(() -> {
      Optional<StoredObject> current = store.get(path.key());
      if (current.isEmpty()) {
        return KubeStatus.notFound(path);
      }
      ObjectNode currentObject = current.get().object();
      ObjectNode merged;
      try {
        merged =
            (ObjectNode)
                (strategic
                    ? StrategicMergePatch.apply(
                        MergeSchema.root(type.schema()), currentObject, effectivePatch)
                    : JsonMergePatch.apply(currentObject, effectivePatch));
      } catch (IllegalArgumentException e) {
        return KubeStatus.badRequest(e.getMessage());
      }
      String expected = Json.text(effectivePatch, "metadata", "resourceVersion");
      Json.metadata(merged).put("resourceVersion", expected != null ? expected : "");
      ApiResponse refused = admit(path, type, merged, request);
      return refused != null ? refused : replace(path, type, current.get(), merged, request);
    });
  }

  /**
   * Server-side apply ({@code application/apply-patch+yaml}): {@code config} merged into the object
   * by its field manager ({@link FieldManager}), which must be named; created when absent; 409
   * naming each field another manager owns unless {@code force=true}; nothing written when nothing
   * changes. With a status subresource, an apply of the main resource leaves the status alone and
   * an apply of {@code /status} changes only the status.
   */
  private ApiResponse apply(ApiPath path, ResourceType type, ApiRequest request) {
    String manager = request.param("fieldManager");
    if (manager == null || manager.isEmpty()) {
      return KubeStatus.failure(
          422,
          "Invalid",
          "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required"
              + " for apply patch");
    }
    if (manager.length() > ApiRequest.MAX_FIELD_MANAGER_LENGTH) {
      return KubeStatus.failure(
          422,
          "Invalid",
          "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: may not be more than "
              + ApiRequest.MAX_FIELD_MANAGER_LENGTH
              + " bytes");
    }
    ObjectNode config;
    try {
      config = ApplyConfiguration.parse(request.body());
    } catch (IllegalArgumentException e) {
      return KubeStatus.badRequest(e.getMessage());
    }
    String mismatch = ApplyConfiguration.mismatch(config, type, path);
    if (mismatch != null) {
      return KubeStatus.badRequest(mismatch);
    }
    Json.metadata(config).put("name", path.name());
    List<String> unknown = SchemaPruning.prune(type.schema(), config);
    if (!unknown.isEmpty() && "Strict".equalsIgnoreCase(request.param("fieldValidation"))) {
      return strictDecodingError(unknown);
    }
    SecretStringData.fold(type, config);
    ApplyConfiguration.keepWhatThePathChanges(config, type, path);
    boolean force = request.flag("force");
    String subresource = path.isStatus() ? "status" : null;
    return exclusive(() -> {
      Optional<StoredObject> current = store.get(path.key());
      if (current.isEmpty()) {
        return path.isStatus()
            ? KubeStatus.notFound(path)
            : applyNew(path, type, request, config, manager);
      }
      FieldManager.Applied applied =
          FieldManager.apply(
              type.schema(),
              current.get().object(),
              config,
              manager,
              force,
              subresource,
              object -> SchemaDefaults.apply(type.schema(), object));
      if (applied.conflicted()) {
        return applyConflict(applied.conflicts());
      }
      ObjectNode merged = applied.object();
      ApiResponse refused = admit(path, type, merged, request);
      if (refused != null) {
        return refused;
      }
      if (dryRun(request)) {
        ObjectNode next = ObjectLifecycle.replacement(path, type, current.get().object(), merged);
        applied.stamp(next);
        return ApiResponse.json(200, next);
      }
      return replace(path, type, current.get(), merged, manager, applied);
    });
  }

  /** An apply of an object that does not exist: it is created (under the write lock). */
  private ApiResponse applyNew(
      ApiPath path, ResourceType type, ApiRequest request, ObjectNode config, String manager) {
    FieldManager.Applied applied =
        FieldManager.apply(
            type.schema(),
            null,
            config,
            manager,
            false,
            null,
            object -> SchemaDefaults.apply(type.schema(), object));
    ObjectNode object = applied.object();
    ApiResponse unfit = prepareNew(path, type, object);
    if (unfit != null) {
      return unfit;
    }
    ApiResponse refused = admit(path, type, object, request);
    if (refused != null) {
      return refused;
    }
    ApiResponse namespaceProblem = namespaceProblem(path);
    if (namespaceProblem != null) {
      return namespaceProblem;
    }
    applied.stamp(object);
    if (dryRun(request)) {
      return ApiResponse.json(201, object);
    }
    try {
      return ApiResponse.json(201, store.create(path.key(), object).object());
    } catch (StoreException e) {
      return storeError(e, path);
    } finally {
      afterCrdWrite(type);
    }
  }

  /**
   * Whether an apply only asks what it would do ({@code dryRun=All}, {@code kubectl diff
   * --server-side}, {@code kubectl apply --server-side --dry-run=server}): answered, not stored.
   */
  private static boolean dryRun(ApiRequest request) {
    return "All".equals(request.param("dryRun"));
  }

  /** kube-apiserver's 409 for an apply that would change fields other managers own. */
  private static ApiResponse applyConflict(List<FieldManager.Conflict> conflicts) {
    ObjectNode details = Json.object();
    ArrayNode causes = details.putArray("causes");
    for (FieldManager.Conflict conflict : conflicts) {
      causes
          .addObject()
          .put("reason", "FieldManagerConflict")
          .put("message", FieldManager.owner(conflict))
          .put("field", conflict.field());
    }
    return ApiResponse.json(
        409, KubeStatus.body(409, "Conflict", FieldManager.conflictMessage(conflicts), details));
  }

  private static ApiResponse strictDecodingError(List<String> unknown) {
    return KubeStatus.badRequest(
        unknown.stream()
            .map(field -> "unknown field \"" + field + "\"")
            .collect(java.util.stream.Collectors.joining(", ", "strict decoding error: ", "")));
  }

  /**
   * What the API server does to every object written, before storing it: fields the CRD's schema
   * does not declare are pruned (or refused, with {@code fieldValidation=Strict}, as {@code kubectl
   * --validate=strict} asks), defaults are applied, then the CRD's validation rules (not on the
   * status subresource, whose writes leave the rest unchanged). A ConfigMap's or Secret's values
   * are bounded as the core kinds' validation bounds them ({@link SizeLimits}).
   *
   * @return why the object is refused, or null
   */
  private static ApiResponse admit(
      ApiPath path, ResourceType type, JsonNode object, ApiRequest request) {
    List<String> unknown = SchemaPruning.prune(type.schema(), object);
    if (!unknown.isEmpty() && "Strict".equalsIgnoreCase(request.param("fieldValidation"))) {
      return strictDecodingError(unknown);
    }
    SchemaDefaults.apply(type.schema(), object);
    SecretStringData.fold(type, object);
    ApiResponse tooLong = SizeLimits.dataTooLong(type, object);
    if (tooLong != null) {
      return tooLong;
    }
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
    List<KubeStatus.FieldError> errors = new ArrayList<>();
    for (SchemaValidation.Problem problem :
        SchemaValidation.check(type.schema(), validatedPart(path, type, object))) {
      errors.add(new KubeStatus.FieldError(problem.reason(), problem.field(), problem.message()));
    }
    if (!path.isStatus()) {
      type.rules().check(object).forEach(violation -> errors.add(KubeStatus.fieldError(violation)));
    }
    return errors.isEmpty() ? null : KubeStatus.invalidFields(type, name, errors);
  }

  /**
   * The part of a write the schema checks: with a status subresource, a write of the main resource
   * cannot change the status and a write of {@code /status} nothing else, so only that part counts.
   */
  private static JsonNode validatedPart(ApiPath path, ResourceType type, JsonNode object) {
    if (!type.statusSubresource() || !(object instanceof ObjectNode whole)) {
      return object;
    }
    ObjectNode part = whole.deepCopy();
    if (path.isStatus()) {
      part.retain("apiVersion", "kind", "metadata", "status");
    } else {
      part.remove("status");
    }
    return part;
  }

  /**
   * Writes {@code sent} over {@code current} (under the write lock), with a conflict when {@code
   * sent} names a resourceVersion that is not the current one. An object being deleted whose last
   * finalizer the write removes is deleted; the answer is still 200 with the object, as on a
   * cluster, and its dependents go too.
   */
  private ApiResponse replace(
      ApiPath path, ResourceType type, StoredObject current, ObjectNode sent, ApiRequest request) {
    return replace(path, type, current, sent, request.fieldManager(), null);
  }

  /**
   * {@link #replace(ApiPath, ResourceType, StoredObject, ObjectNode, ApiRequest)} for {@code
   * manager}; an apply brings its own managed fields ({@code applied}), and when it changes
   * nothing, nothing is written (the resourceVersion stays).
   */
  private ApiResponse replace(
      ApiPath path,
      ResourceType type,
      StoredObject current,
      ObjectNode sent,
      String manager,
      FieldManager.Applied applied) {
    long expected = revisionOf(Json.text(sent, "metadata", "resourceVersion"));
    if (expected > 0 && expected != current.revision()) {
      return KubeStatus.conflict(path);
    }
    ObjectNode next = ObjectLifecycle.replacement(path, type, current.object(), sent);
    if (applied != null) {
      applied.stamp(next);
      if (Json.sameContent(next, current.object())) {
        return ApiResponse.json(200, current.object());
      }
    } else {
      FieldManager.recordUpdate(
          type.schema(), current.object(), next, manager, path.isStatus() ? "status" : null);
    }
    try {
      if (ObjectLifecycle.finished(next)) {
        store.delete(path.key(), current.revision());
        collectDependents(uid(next));
        return ApiResponse.json(200, next);
      }
      return ApiResponse.json(200, store.update(path.key(), current.revision(), next).object());
    } catch (StoreException e) {
      return storeError(e, path);
    } finally {
      afterCrdWrite(type);
    }
  }

  ApiResponse delete(ApiPath path, ResourceType type, ApiRequest request) {
    if (path.subresource() != null) {
      return KubeStatus.methodNotAllowed();
    }
    if (path.isCollection()) {
      Selection selection;
      try {
        selection = selection(path, type, request);
      } catch (IllegalArgumentException e) {
        return KubeStatus.badRequest(e.getMessage());
      }
      return exclusive(() -> deleteCollection(path, type, selection));
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

  private ApiResponse deleteCollection(ApiPath path, ResourceType type, Selection selection) {
    ListPage page = store.list(selection, 0, null);
    ObjectNode result = listDocument(type, page);
    ArrayNode deleted = Json.MAPPER.createArrayNode();
    for (JsonNode item : page.items()) {
      ApiPath itemPath =
          new ApiPath(
              path.group(),
              path.version(),
              type.namespaced() ? Json.text(item, "metadata", "namespace") : null,
              path.resource(),
              Json.text(item, "metadata", "name"),
              null);
      ApiResponse one = deleteOne(itemPath, type, null);
      if (one.code() == 200) {
        deleted.add(Json.parse(one.body()));
      }
    }
    result.set("items", deleted);
    return ApiResponse.json(200, result);
  }

  /** Deletes one object; with finalizers it is only marked, and goes once they are removed. */
  private ApiResponse deleteOne(ApiPath path, ResourceType type, JsonNode options) {
    Optional<StoredObject> found = store.get(path.key());
    if (found.isEmpty()) {
      return KubeStatus.notFound(path);
    }
    ObjectNode object = found.get().object();
    if (options != null) {
      String expectedVersion = Json.text(options, "preconditions", "resourceVersion");
      String expectedUid = Json.text(options, "preconditions", "uid");
      if ((expectedVersion != null && !expectedVersion.equals(resourceVersion(object)))
          || (expectedUid != null && !expectedUid.equals(uid(object)))) {
        return KubeStatus.conflict(path);
      }
    }
    try {
      JsonNode finalizers = object.path("metadata").path("finalizers");
      if (finalizers.isArray() && !finalizers.isEmpty()) {
        if (object.path("metadata").hasNonNull("deletionTimestamp")) {
          return ApiResponse.json(200, object);
        }
        ObjectNode metadata = Json.metadata(object);
        metadata.put("deletionTimestamp", ObjectLifecycle.now());
        metadata.put("deletionGracePeriodSeconds", 0);
        return ApiResponse.json(
            200, store.update(path.key(), found.get().revision(), object).object());
      }
      StoredObject deleted = store.delete(path.key(), found.get().revision());
      collectDependents(uid(object));
      if (type.group().isEmpty() && type.plural().equals("namespaces")) {
        deleteNamespaceContents(path.name());
      }
      return ApiResponse.json(200, deleted.object());
    } catch (StoreException e) {
      return storeError(e, path);
    } finally {
      afterCrdWrite(type);
    }
  }

  /**
   * Background cascading deletion: deletes every object that names {@code ownerUid} in its owner
   * references, as Kubernetes' garbage collector does. Runs under the write lock.
   */
  private void collectDependents(String ownerUid) {
    if (ownerUid != null) {
      deleteAll(store.ownedBy(ownerUid), "owner " + ownerUid + " is gone");
    }
  }

  /** What the namespace controller does: a deleted namespace takes its objects along. */
  private void deleteNamespaceContents(String namespace) {
    deleteAll(store.inNamespace(namespace), "namespace " + namespace + " is gone");
  }

  /** Deletes each object (their dependents too); runs under the write lock ({@link #exclusive}). */
  void deleteAll(List<StoredObject> doomed, String why) {
    for (StoredObject stored : doomed) {
      JsonNode item = stored.object();
      types
          .catalog()
          .ofKind(Json.text(item, "apiVersion"), Json.text(item, "kind"))
          .ifPresent(t -> {
            ApiPath path =
                new ApiPath(
                    t.group(),
                    t.version(),
                    t.namespaced() ? stored.key().namespace() : null,
                    t.plural(),
                    stored.key().name(),
                    null);
            LOG.debug("Deleting {} {}/{}: {}", t.kind(), path.namespace(), path.name(), why);
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

  /** A store refusal as the API server words it. */
  static ApiResponse storeError(StoreException e, ApiPath path) {
    return switch (e.reason()) {
      case NOT_FOUND -> KubeStatus.notFound(path);
      case ALREADY_EXISTS -> KubeStatus.alreadyExists(path);
      case CONFLICT -> KubeStatus.conflict(path);
      case TOO_LARGE -> {
        // What a cluster would refuse too: say which object, and how big (never its content).
        LOG.warn("Refused as etcd would: {}", e.getMessage());
        yield SizeLimits.objectTooLarge();
      }
    };
  }

  private static long revisionOf(String resourceVersion) {
    if (resourceVersion == null || resourceVersion.isEmpty()) {
      return 0;
    }
    try {
      return Long.parseLong(resourceVersion);
    } catch (NumberFormatException e) {
      // Not one this store handed out: it can only be stale.
      return -1;
    }
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
