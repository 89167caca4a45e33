/**
 * The embedded Kubernetes API of the local mode: an SQLite object store ({@link
 * dev.threadline.local.kubeapi.store}) behind a small Vert.x HTTPS front, so that the operator, the
 * api-server and the real {@code kubectl} cannot tell it from a cluster for what Threadline uses.
 *
 * <p>How a request flows: {@link dev.threadline.local.kubeapi.HttpFront} (event loop) checks the
 * bearer token ({@link dev.threadline.local.kubeapi.Credentials}), streams watches and followed pod
 * logs itself and hands every other request, on a worker thread, to {@link
 * dev.threadline.local.kubeapi.ApiRequestRouter}, which answers version, discovery and OpenAPI
 * paths, rejects any path that names no known resource type with a 404 Status, and passes resource
 * requests to {@link dev.threadline.local.kubeapi.ResourceOperations}: what an API server does
 * around its store (identity, generation and the status subresource in {@link
 * dev.threadline.local.kubeapi.ObjectLifecycle}, RFC 7386 merge patches, JSON patches, strategic
 * merge patches ({@link dev.threadline.local.kubeapi.patch}) and server-side apply with managed
 * fields ({@link dev.threadline.local.kubeapi.apply}), pruning of unknown fields, CRD schema
 * defaults, schema validation and CEL validation rules with a 422, creation only in existing
 * namespaces, owner-reference and namespace cascades); {@link
 * dev.threadline.local.kubeapi.GarbageCollector} deletes objects whose owners are all gone whenever
 * they appear. docs/local-store.md describes the store's schema and watch semantics.
 *
 * <p>Known limitations, each deliberate:
 *
 * <ul>
 *   <li>No aggregated discovery, no protobuf; OpenAPI only for CRD kinds.
 *   <li>Of a CRD schema, pruning, defaults, validation ({@link
 *       dev.threadline.local.kubeapi.validation}) and CEL rules apply (no transition rules with
 *       {@code oldSelf}); built-in kinds are not schema-validated, and their lists merge
 *       (server-side apply, strategic merge patch) by the few merge keys {@link
 *       dev.threadline.local.kubeapi.apply.MergeSchema} knows, others being atomic.
 *   <li>{@code dryRun} is not implemented; paging does not keep the first page's snapshot; deletion
 *       ignores grace periods and propagation policy (always background), and a deleted namespace
 *       takes its objects at once, finalizers or not.
 *   <li>Pod logs ignore {@code timestamps}, {@code sinceSeconds} and {@code limitBytes}; exec,
 *       attach and port-forward are not served.
 * </ul>
 */
package dev.threadline.local.kubeapi;
