package dev.threadline.api.paging;

/**
 * Extra counts a list may carry next to its page (the contract's {@code stats} on schedule lists:
 * {@code total}, {@code enabled}, {@code disabled}). Implemented by a record per resource.
 */
public interface ListStats {}
