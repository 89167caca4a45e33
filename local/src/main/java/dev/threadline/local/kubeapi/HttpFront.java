package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.rbac.Forbidden;
import dev.threadline.local.kubeapi.rbac.PolicyCache;
import dev.threadline.local.kubeapi.rbac.RbacPolicy;
import dev.threadline.local.kubeapi.rbac.RequestAttributes;
import dev.threadline.local.kubeapi.rbac.UserInfo;
import dev.threadline.local.kubeapi.store.BookmarkShape;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.Selection;
import dev.threadline.local.kubeapi.store.Watch;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.streams.WriteStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the embedded API, on Vert.x. It streams followed pod logs and watches (over
 * chunked HTTP for kubectl, over WebSocket for fabric8 clients) and hands every other request to
 * the {@link ApiRequestRouter}, its body read up to kube-apiserver's limit ({@link BoundedBody}).
 * Anything that may block (the store reads and writes SQLite) runs on the worker pool, never on the
 * event loop.
 */
final class HttpFront implements Handler<HttpServerRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);
  private static final Duration STALLED = Duration.ofSeconds(60);

  /** What a cluster answers without credentials too. */
  private static final Set<String> PUBLIC_PATHS =
      Set.of("/healthz", "/livez", "/readyz", "/version");

  private final ApiRequestRouter router;
  private final Credentials credentials;
  private final PolicyCache policies;
  private final ObjectStore store;
  private final PodLogStreamer podLogs;
  private final ExecutorService workers;

  HttpFront(
      ApiRequestRouter router,
      ObjectStore store,
      PodLogStreamer podLogs,
      Credentials credentials,
      PolicyCache policies,
      ExecutorService workers) {
    this.router = router;
    this.credentials = credentials;
    this.policies = policies;
    this.store = store;
    this.podLogs = podLogs;
    this.workers = workers;
  }

  @Override
  public void handle(HttpServerRequest request) {
    ApiRequest head = toApiRequest(request, null);
    ApiResponse refused = authorize(request, head);
    if (refused != null) {
      send(request.response(), refused);
      return;
    }
    boolean upgrade = isWebSocketUpgrade(request);
    if (head.isWatch()) {
      serveWatch(request, head, upgrade);
      return;
    }
    if (upgrade) {
      // exec, attach and port-forward are not served.
      send(request.response(), KubeStatus.pathNotFound());
      return;
    }
    if (head.method().equals("GET") && head.path().endsWith("/log")) {
      ApiRequestRouter.Resolution resolution = router.resolve(head.path());
      if (!resolution.rejected() && "log".equals(resolution.path().subresource())) {
        serveLog(request, resolution.path(), head);
        return;
      }
    }
    BoundedBody.read(
        request,
        SizeLimits.MAX_REQUEST_BODY_BYTES,
        body ->
            runBlocking(() -> {
              ApiResponse answer = router.handle(toApiRequest(request, body), userOf(request));
              LOG.debug("{} {} -> {}", head.method(), request.uri(), answer.code());
              send(request.response(), answer);
            }),
        () -> {
          LOG.debug("{} {} -> 413", head.method(), request.uri());
          send(request.response(), SizeLimits.requestTooLarge());
        });
  }

  /**
   * Every request but the health and version probes needs a bearer token; what its identity may do
   * is decided by the RBAC policy ({@link RbacPolicy}), as kube-apiserver's authorizer decides.
   *
   * @return the 401 or 403 to answer, or null to serve the request
   */
  private ApiResponse authorize(HttpServerRequest request, ApiRequest head) {
    if (PUBLIC_PATHS.contains(head.path())) {
      return null;
    }
    Optional<UserInfo> user = credentials.authenticate(request.getHeader("Authorization"));
    if (user.isEmpty()) {
      return KubeStatus.failure(401, "Unauthorized", "Unauthorized");
    }
    RequestAttributes attributes = attributes(user.get(), head);
    if (policies.policy().allows(attributes)) {
      return null;
    }
    if (user.get().name().startsWith("system:serviceaccount:")) {
      // A component (or a Pod) refused: on a cluster too, this is a permission the chart lacks.
      LOG.info("RBAC refused: {}", Forbidden.message(attributes));
    } else {
      LOG.debug("RBAC refused: {}", Forbidden.message(attributes));
    }
    ObjectNode details = Json.object();
    if (attributes.resourceRequest()) {
      if (!attributes.name().isEmpty()) {
        details.put("name", attributes.name());
      }
      details.put("group", attributes.apiGroup());
      details.put("kind", attributes.resource());
    }
    return ApiResponse.json(
        403,
        KubeStatus.body(
            403, "Forbidden", Forbidden.message(attributes), details.isEmpty() ? null : details));
  }

  /** The request as kube-apiserver's request info describes it to the authorizer. */
  static RequestAttributes attributes(UserInfo user, ApiRequest head) {
    Optional<ApiPath> parsed = ApiPath.parse(head.path());
    if (parsed.isEmpty()) {
      return RequestAttributes.nonResource(
          user, head.method().toLowerCase(Locale.ROOT), head.path());
    }
    ApiPath path = parsed.get();
    String name = path.name();
    String verb = verb(head, path);
    if (name == null && (verb.equals("list") || verb.equals("watch"))) {
      // A list or watch of one object by its name is authorised as that object's, as on a cluster.
      name = singleName(head.param("fieldSelector"));
    }
    // A namespace is its own namespace: a RoleBinding there may grant reading it.
    String namespace =
        path.group().isEmpty() && path.resource().equals("namespaces") && path.name() != null
            ? path.name()
            : path.namespace();
    return RequestAttributes.resource(
        user, verb, namespace, path.group(), path.resource(), path.subresource(), name);
  }

  private static String singleName(String fieldSelector) {
    if (fieldSelector == null || fieldSelector.contains(",")) {
      return null;
    }
    String prefix = "metadata.name=";
    if (fieldSelector.startsWith(prefix)) {
      return fieldSelector.substring(prefix.length());
    }
    if (fieldSelector.startsWith("metadata.name==")) {
      return fieldSelector.substring("metadata.name==".length());
    }
    return null;
  }

  private static String verb(ApiRequest head, ApiPath path) {
    boolean collection = path.name() == null;
    return switch (head.method()) {
      case "GET", "HEAD" -> head.isWatch() ? "watch" : collection ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> collection ? "deletecollection" : "delete";
      default -> head.method().toLowerCase(Locale.ROOT);
    };
  }

  /** The identity {@link #authorize} admitted (the probes, which need none, as anonymous). */
  private UserInfo userOf(HttpServerRequest request) {
    return credentials
        .authenticate(request.getHeader("Authorization"))
        .orElseGet(() -> new UserInfo("system:anonymous", List.of("system:unauthenticated")));
  }

  private void serveWatch(HttpServerRequest request, ApiRequest asked, boolean upgrade) {
    ApiRequestRouter.Resolution asResolved = router.resolve(asked.path());
    ApiRequest watch = asked;
    if (!asResolved.rejected()
        && asResolved.path().name() != null
        && asResolved.path().subresource() == null) {
      // The old form of a single-object watch: the collection with a name selector.
      watch = asked.watchingOnly(asResolved.path().name());
      asResolved = router.resolve(asResolved.path().withName(null).path());
    }
    ApiRequestRouter.Resolution resolution = asResolved;
    ApiRequest head = watch;
    if (resolution.rejected() || resolution.path().subresource() != null) {
      send(
          request.response(),
          resolution.rejected() ? resolution.rejection() : KubeStatus.methodNotAllowed());
      return;
    }
    Selection selection;
    try {
      selection = ResourceOperations.selection(resolution.path(), resolution.type(), head);
    } catch (IllegalArgumentException e) {
      send(request.response(), KubeStatus.badRequest(e.getMessage()));
      return;
    }
    if (upgrade) {
      // The upgrade must start here, synchronously, before the request is read.
      request
          .toWebSocket()
          .onSuccess(ws ->
              openWatch(
                  head,
                  resolution,
                  selection,
                  webSocketTarget(ws),
                  handler -> {
                    ws.closeHandler(v -> handler.run());
                    // Let close frames in: the client ends a watch by closing the socket.
                    ws.resume();
                  }))
          .onFailure(e -> LOG.debug("WebSocket upgrade of {} failed", head.path(), e));
    } else {
      HttpServerResponse response = request.response();
      response.setStatusCode(200).setChunked(true).putHeader("Content-Type", ApiResponse.JSON);
      response.writeHead();
      openWatch(
          head,
          resolution,
          selection,
          httpTarget(response),
          handler -> response.closeHandler(v -> handler.run()));
    }
  }

  private void serveLog(HttpServerRequest request, ApiPath path, ApiRequest head) {
    runBlocking(() -> {
      PodLogStreamer.Lookup lookup = podLogs.lookup(path, head);
      if (lookup.error() != null) {
        send(request.response(), lookup.error());
      } else {
        podLogs.serve(request.response(), lookup.log(), head);
      }
    });
  }

  /** Opens a watch in the store and connects it to the client. */
  private void openWatch(
      ApiRequest head,
      ApiRequestRouter.Resolution resolution,
      Selection selection,
      WatchSink.Target target,
      Consumer<Runnable> onClientClose) {
    AtomicReference<Watch> opened = new AtomicReference<>();
    AtomicBoolean clientGone = new AtomicBoolean();
    onClientClose.accept(() -> {
      clientGone.set(true);
      Watch watch = opened.get();
      if (watch != null) {
        watch.close();
      }
    });
    runBlocking(() -> {
      ResourceType type = resolution.type();
      WatchEventFilter filter =
          new WatchEventFilter(
              head.param("resourceVersion"),
              head.wantsTable() ? type : null,
              head.param("includeObject"));
      BookmarkShape bookmarks =
          head.flag("allowWatchBookmarks")
              ? new BookmarkShape(type.groupVersion(), type.kind())
              : null;
      try {
        opened.set(
            store.watch(
                selection,
                WatchEventFilter.parse(head.param("resourceVersion")),
                bookmarks,
                new WatchSink(filter, target)));
      } catch (RuntimeException e) {
        LOG.warn("Opening a watch on {} failed", head.path(), e);
        target.close();
        return;
      }
      if (clientGone.get()) {
        opened.get().close();
      }
    });
  }

  private static WatchSink.Target webSocketTarget(ServerWebSocket ws) {
    return new WatchSink.Target() {
      @Override
      public void send(String event) {
        if (!ws.isClosed()) {
          ws.writeTextMessage(event);
          awaitDrain(ws);
        }
      }

      @Override
      public void close() {
        if (!ws.isClosed()) {
          ws.close();
        }
      }
    };
  }

  private static WatchSink.Target httpTarget(HttpServerResponse response) {
    return new WatchSink.Target() {
      @Override
      public void send(String event) {
        if (!response.closed() && !response.ended()) {
          response.write(event + "\n");
          awaitDrain(response);
        }
      }

      @Override
      public void close() {
        if (!response.closed() && !response.ended()) {
          response.end();
        }
      }
    };
  }

  /**
   * Holds the watch's thread while the client does not read, so that the store's bounded queue
   * fills and ends the watch with an error, rather than Vert.x buffering without end. A client that
   * reads nothing for {@link #STALLED} loses the watch at once.
   */
  private static void awaitDrain(WriteStream<Buffer> stream) {
    if (!stream.writeQueueFull()) {
      return;
    }
    CompletableFuture<Void> drained = new CompletableFuture<>();
    stream.drainHandler(v -> drained.complete(null));
    if (!stream.writeQueueFull()) {
      drained.complete(null);
    }
    try {
      drained.get(STALLED.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the client was not reading", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the client stopped reading its watch", e);
    }
  }

  private void runBlocking(Runnable task) {
    try {
      workers.execute(task);
    } catch (RejectedExecutionException e) {
      // Shutting down: finish small clean-ups here rather than drop them.
      task.run();
    }
  }

  private static void send(HttpServerResponse response, ApiResponse answer) {
    if (response.closed() || response.ended()) {
      return;
    }
    response.setStatusCode(answer.code());
    if (answer.contentType() != null) {
      response.putHeader("Content-Type", answer.contentType());
    }
    response.end(Buffer.buffer(answer.body()));
  }

  private static ApiRequest toApiRequest(HttpServerRequest request, byte[] body) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    request
        .params()
        .forEach(entry ->
            query.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).add(entry.getValue()));
    return new ApiRequest(
        request.method().name(),
        request.path(),
        query,
        request.getHeader("Accept"),
        request.getHeader("Content-Type"),
        body,
        request.getHeader("User-Agent"));
  }

  private static boolean isWebSocketUpgrade(HttpServerRequest request) {
    String upgrade = request.getHeader("Upgrade");
    return upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket");
  }
}
