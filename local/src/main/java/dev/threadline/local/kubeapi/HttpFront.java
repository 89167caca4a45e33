package dev.threadline.local.kubeapi;

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
  private final ObjectStore store;
  private final PodLogStreamer podLogs;
  private final ExecutorService workers;

  HttpFront(
      ApiRequestRouter router,
      ObjectStore store,
      PodLogStreamer podLogs,
      Credentials credentials,
      ExecutorService workers) {
    this.router = router;
    this.credentials = credentials;
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
              ApiResponse answer = router.handle(toApiRequest(request, body));
              LOG.debug("{} {} -> {}", head.method(), request.uri(), answer.code());
              send(request.response(), answer);
            }),
        () -> {
          LOG.debug("{} {} -> 413", head.method(), request.uri());
          send(request.response(), SizeLimits.requestTooLarge());
        });
  }

  /**
   * Every request but the health and version probes needs a bearer token; a service account's token
   * opens only what its {@link Principal} allows.
   *
   * @return the 401 or 403 to answer, or null to serve the request
   */
  private ApiResponse authorize(HttpServerRequest request, ApiRequest head) {
    if (PUBLIC_PATHS.contains(head.path())) {
      return null;
    }
    Optional<Principal> principal = credentials.authenticate(request.getHeader("Authorization"));
    if (principal.isEmpty()) {
      return KubeStatus.failure(401, "Unauthorized", "Unauthorized");
    }
    ApiRequestRouter.Resolution resolution = router.resolve(head.path());
    ApiPath path = resolution.path();
    String verb = verb(head, path);
    if (principal.get().allows(path, verb)) {
      return null;
    }
    String who =
        principal.get() instanceof Principal.ServiceAccount account
            ? account.username()
            : "unknown";
    return path == null
        ? KubeStatus.failure(403, "Forbidden", "forbidden: User \"" + who + "\" cannot " + verb)
        : KubeStatus.failure(
            403,
            "Forbidden",
            path.qualifiedResource()
                + " is forbidden: User \""
                + who
                + "\" cannot "
                + verb
                + " resource \""
                + path.resource()
                + "\" in API group \""
                + path.group()
                + "\""
                + (path.namespace() == null
                    ? ""
                    : " in the namespace \"" + path.namespace() + "\""));
  }

  private static String verb(ApiRequest head, ApiPath path) {
    boolean collection = path == null || path.name() == null;
    return switch (head.method()) {
      case "GET" -> head.isWatch() ? "watch" : collection ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> collection ? "deletecollection" : "delete";
      default -> head.method().toLowerCase(Locale.ROOT);
    };
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
