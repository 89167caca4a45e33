package dev.threadline.local.kubeapi;

import dev.threadline.local.kubeapi.protobuf.ProtobufBodies;
import dev.threadline.local.kubeapi.rbac.UserInfo;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every non-streaming request: version and discovery documents itself, resource requests
 * through {@link ResourceOperations}, and a 404 Status for any other path. The raw store would
 * answer an unknown path with a list of every stored object, Secrets included; no request reaches
 * it unless its path names a known resource type.
 */
final class ApiRequestRouter {
  private static final Logger LOG = LoggerFactory.getLogger(ApiRequestRouter.class);
  static final String OPENAPI_V2_CONTENT_TYPE =
      "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

  private final ResourceTypes types;
  private final ResourceOperations operations;
  private final Supplier<String> serverAddress;
  private final RbacRequests rbac;

  ApiRequestRouter(
      ResourceTypes types,
      ResourceOperations operations,
      Supplier<String> serverAddress,
      RbacRequests rbac) {
    this.types = types;
    this.operations = operations;
    this.serverAddress = serverAddress;
    this.rbac = rbac;
  }

  /** A resource request's path and type, or the answer that rejects it. */
  record Resolution(ApiPath path, ResourceType type, ApiResponse rejection) {
    boolean rejected() {
      return rejection != null;
    }
  }

  /** Resolves a resource path from memory alone: safe on the event loop. */
  Resolution resolve(String rawPath) {
    Optional<ApiPath> parsed = ApiPath.parse(rawPath);
    if (parsed.isEmpty()) {
      return new Resolution(null, null, KubeStatus.pathNotFound());
    }
    ApiPath path = parsed.get();
    Optional<ResourceType> type = types.find(path);
    if (type.isEmpty() || (path.namespace() != null && !type.get().namespaced())) {
      return new Resolution(path, null, KubeStatus.pathNotFound());
    }
    if (path.subresource() != null && !isServedSubresource(path, type.get())) {
      return new Resolution(path, type.get(), KubeStatus.pathNotFound());
    }
    return new Resolution(path, type.get(), null);
  }

  private static boolean isServedSubresource(ApiPath path, ResourceType type) {
    if (path.isStatus()) {
      return type.statusSubresource();
    }
    return path.subresource().equals("log")
        && type.group().isEmpty()
        && type.plural().equals("pods");
  }

  /**
   * Serves a request {@code user} was authorised to make; blocks on the store, so it runs on a
   * worker thread.
   */
  ApiResponse handle(ApiRequest request, UserInfo user) {
    if (ProtobufBodies.isProtobuf(request.contentType()) && request.hasBody()) {
      try {
        request = asJson(request);
      } catch (ProtobufBodies.UnsupportedKindException e) {
        // 415: a client that can send JSON does so.
        return KubeStatus.unsupportedMediaType(e.getMessage());
      } catch (IllegalArgumentException e) {
        return KubeStatus.badRequest(e.getMessage());
      }
    }
    try {
      return route(request, user);
    } catch (RuntimeException e) {
      LOG.warn("{} {} failed", request.method(), request.path(), e);
      return KubeStatus.failure(
          500, "InternalError", "the embedded API failed to serve the request: " + e.getMessage());
    }
  }

  /** A protobuf request as the JSON one the rest of the API reads. */
  private static ApiRequest asJson(ApiRequest request) {
    return new ApiRequest(
        request.method(),
        request.path(),
        request.query(),
        request.accept(),
        ApiResponse.JSON,
        Json.bytes(ProtobufBodies.toJson(request.body())),
        request.userAgent());
  }

  private ApiResponse route(ApiRequest request, UserInfo user) {
    Optional<ApiResponse> discovery = discovery(request.path(), request.accept());
    if (discovery.isPresent()) {
      return request.method().equals("GET") ? discovery.get() : KubeStatus.methodNotAllowed();
    }
    Optional<ApiResponse> review = rbac.review(request, user);
    if (review.isPresent()) {
      return review.get();
    }
    Resolution resolution = resolve(request.path());
    if (resolution.rejected()) {
      return resolution.rejection();
    }
    ApiPath path = resolution.path();
    ResourceType type = resolution.type();
    Optional<ApiResponse> escalation = rbac.escalation(request, path, user);
    if (escalation.isPresent()) {
      return escalation.get();
    }
    return switch (request.method()) {
      case "GET" -> operations.get(path, type, request);
      case "POST" -> operations.create(path, type, request);
      case "PUT" ->
          path.name() == null
              ? KubeStatus.methodNotAllowed()
              : operations.update(path, type, request);
      case "PATCH" ->
          path.name() == null
              ? KubeStatus.methodNotAllowed()
              : operations.patch(path, type, request);
      case "DELETE" -> operations.delete(path, type, request);
      default -> KubeStatus.methodNotAllowed();
    };
  }

  /** Version, health, discovery and OpenAPI documents; empty for any other path. */
  private Optional<ApiResponse> discovery(String rawPath, String accept) {
    String path =
        rawPath.length() > 1 && rawPath.endsWith("/")
            ? rawPath.substring(0, rawPath.length() - 1)
            : rawPath;
    ResourceCatalog catalog = types.catalog();
    switch (path) {
      case "/version":
        return Optional.of(ApiResponse.json(200, DiscoveryDocuments.version()));
      case "/healthz", "/livez", "/readyz":
        return Optional.of(new ApiResponse(200, "text/plain", "ok".getBytes()));
      case "/api":
        return Optional.of(
            ApiResponse.json(200, DiscoveryDocuments.coreVersions(serverAddress.get())));
      case "/apis":
        return Optional.of(ApiResponse.json(200, DiscoveryDocuments.groupList(catalog)));
      case "/openapi/v2":
        // JSON for whoever asks for JSON; kubectl asks for protobuf only, and gets an empty
        // document (it reads the v3 documents instead).
        return Optional.of(
            accept != null && accept.contains("protobuf") && !accept.contains("json")
                ? new ApiResponse(200, OPENAPI_V2_CONTENT_TYPE, new byte[0])
                : ApiResponse.json(200, OpenApiDocuments.v2(catalog)));
      case "/openapi/v3":
        return Optional.of(ApiResponse.json(200, OpenApiDocuments.v3Index(catalog)));
      default:
        break;
    }
    if (path.startsWith("/openapi/v3/apis/") && path.split("/").length == 6) {
      String[] parts = path.split("/");
      return Optional.of(
          OpenApiDocuments.v3(catalog, parts[4], parts[5])
              .map(document -> ApiResponse.json(200, document))
              .orElseGet(KubeStatus::pathNotFound));
    }
    if (path.equals("/openapi") || path.startsWith("/openapi/")) {
      return Optional.of(KubeStatus.pathNotFound());
    }
    String[] segments = path.substring(1).split("/");
    if (segments.length == 2 && segments[0].equals("api")) {
      return Optional.of(
          DiscoveryDocuments.resourceList(catalog, "", segments[1])
              .map(list -> ApiResponse.json(200, list))
              .orElseGet(KubeStatus::pathNotFound));
    }
    if (segments.length == 2 && segments[0].equals("apis")) {
      return Optional.of(
          DiscoveryDocuments.group(catalog, segments[1])
              .map(group -> ApiResponse.json(200, group))
              .orElseGet(KubeStatus::pathNotFound));
    }
    if (segments.length == 3 && segments[0].equals("apis")) {
      return Optional.of(
          DiscoveryDocuments.resourceList(catalog, segments[1], segments[2])
              .map(list -> ApiResponse.json(200, list))
              .orElseGet(KubeStatus::pathNotFound));
    }
    return Optional.empty();
  }
}
