package dev.threadline.history;

/**
 * A thread that left the Kubernetes API.
 *
 * @param createdAt when the thread was created (RFC 3339, UTC): the order of listings
 * @param archivedAt when it left the API
 * @param object the Thread's JSON as it was then
 */
public record ArchivedThread(
    String namespace, String name, String createdAt, String archivedAt, String object) {}
