package dev.threadline.api.threads;

/** {@code {thread, execution}}: the answer to a message sent with {@code stream: false}. */
public record ThreadExecutionResponse(ThreadView thread, ExecutionView execution) {}
