package dev.threadline.runner.serve;

/**
 * One entry of a workspace listing.
 *
 * @param path relative to the workspace, with {@code /} separators
 * @param type {@code file}, {@code directory} or {@code symlink}
 * @param size bytes, for files; 0 otherwise
 * @param modifiedAt ISO 8601 UTC
 */
public record FileEntry(String name, String path, String type, long size, String modifiedAt) {}
