package dev.threadline.api.threads;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The contract's thread diff entry: {@code content} for created files, counts for modified ones.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DiffEntry(String path, String type, String content, Long additions, Long deletions) {}
