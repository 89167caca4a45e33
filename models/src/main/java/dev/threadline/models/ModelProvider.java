package dev.threadline.models;

/**
 * One language model behind a single blocking call, optionally streamed. Implementations are
 * thread-safe and keep no conversation state: the whole conversation travels in every {@link
 * ModelRequest}, so a caller can resume after a restart from its own record of the messages.
 */
public interface ModelProvider extends AutoCloseable {

  /** The provider's configuration name: {@code scripted}, {@code openai} or {@code anthropic}. */
  String name();

  /**
   * Asks the model for the next turn of the conversation.
   *
   * @throws ModelException when the model cannot answer; its {@link ModelException#code()} tells
   *     the caller whether trying again may help (providers never retry on their own)
   */
  ModelReply complete(ModelRequest request);

  /**
   * Like {@link #complete}, but hands the reply's text to {@code deltas} while the model writes it.
   * The pieces joined equal the returned {@link ModelReply#text()}; usage comes from the stream's
   * final report. Providers that cannot stream hand over the whole text at once.
   *
   * @throws ModelException as {@link #complete} does, possibly after some pieces were handed over
   */
  default ModelReply stream(ModelRequest request, TextDeltas deltas) {
    ModelReply reply = complete(request);
    if (!reply.text().isEmpty()) {
      deltas.onText(reply.text());
    }
    return reply;
  }

  /** Releases the HTTP connections and threads an HTTP provider holds; a no-op for offline ones. */
  @Override
  default void close() {}
}
