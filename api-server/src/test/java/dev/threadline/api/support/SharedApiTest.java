package dev.threadline.api.support;

/**
 * What a test over real HTTP starts with: the shared API server, a REST and an SSE client of it,
 * and the fake operator that answers its runs.
 */
public abstract class SharedApiTest {
  protected static final SharedApiServer shared = SharedApiServer.get();
  protected static final ApiClient api = shared.api();
  protected static final SseClient sse = new SseClient(shared.baseUrl());
  protected static final FakeOperator operator = FakeOperator.on(shared);
}
