/**
 * The embedded Kubernetes API of the local mode: fabric8's CRUD mock store ({@code
 * KubernetesCrudDispatcher}) behind a small Vert.x HTTP front, so that the operator, the api-server
 * and the real {@code kubectl} cannot tell it from a cluster for what Threadline uses.
 *
 * <p>How a request flows: {@link dev.threadline.local.kubeapi.HttpFront} (event loop) streams
 * watches and followed pod logs itself and hands every other request, on a worker thread, to {@link
 * dev.threadline.local.kubeapi.ApiRequestRouter}, which answers version, discovery and OpenAPI
 * paths, rejects any path that names no known resource type with a 404 Status (the raw store would
 * list every object), and passes resource requests to {@link
 * dev.threadline.local.kubeapi.ResourceOperations}. That class corrects the store where it differs
 * from an API server: writes without query strings, RFC 7386 merge patches, resourceVersion checks
 * on {@code /status}, RFC 3339 deletion timestamps, CRD schema defaults and CEL validation rules
 * (422 with the rule's message), creation only in existing namespaces, owner-reference and
 * namespace cascades.
 *
 * <p>Known limitations, each deliberate:
 *
 * <ul>
 *   <li>Strategic merge patches are applied as JSON merge patches: lists are replaced whole, merge
 *       keys (a container's name) are not honoured. Server-side apply is refused with a 415.
 *   <li>No OpenAPI documents (so no {@code kubectl explain}), no aggregated discovery, no protobuf.
 *   <li>Of a CRD schema, only defaults and CEL validation rules apply (no transition rules with
 *       {@code oldSelf}): types, enums, patterns and required fields are not checked, nothing is
 *       pruned.
 *   <li>Field selectors only on {@code metadata.name} and {@code metadata.namespace}; set-based
 *       label selectors ({@code in}, {@code notin}) are ignored by the store.
 *   <li>A watch from resourceVersion N drops the replay of objects at or below N, but a deletion
 *       between a list and the watch that follows it is not reported. Watches never time out and
 *       send no bookmarks.
 *   <li>{@code dryRun} and {@code limit}/{@code continue} paging are not implemented; deletion
 *       ignores grace periods and propagation policy (always background), and a deleted namespace
 *       takes its objects at once, finalizers or not.
 *   <li>Pod logs ignore {@code timestamps}, {@code sinceSeconds} and {@code limitBytes}; exec,
 *       attach and port-forward are not served.
 * </ul>
 */
package dev.threadline.local.kubeapi;
