package dev.threadline.api.threads;

/** {@code {thread}}. */
public record ThreadResponse(ThreadView thread) {}
