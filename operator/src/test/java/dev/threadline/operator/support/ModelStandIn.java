package dev.threadline.operator.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.threadline.models.ModelSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the model stand-ins share: a {@link LoopbackServer}, replies answered in the order they were
 * queued (a 500 when none is left), every request body recorded (so a test can count model calls),
 * and the pace of a streamed answer — a delay before the first token and between tokens, as a
 * hosted model writes; also the failures of a provider: an error status, an answer that never
 * comes. A subclass speaks one provider's wire format.
 *
 * @param <R> what a queued reply holds
 */
public abstract class ModelStandIn<R> implements AutoCloseable {
  protected static final ObjectMapper JSON = new ObjectMapper();

  /** Sends one token of a streamed answer. */
  @FunctionalInterface
  protected interface TokenWriter {
    void write(String token) throws IOException;
  }

  private final String provider;
  private final String noReplyError;

  /** One queued answer to one request. */
  @FunctionalInterface
  private interface Answer {
    void send(HttpExchange exchange, JsonNode body) throws IOException, InterruptedException;
  }

  /** How long a hung answer holds its connection: past any client's timeout; close() ends it. */
  private static final Duration HUNG = Duration.ofMinutes(10);

  private final Queue<Answer> replies = new ConcurrentLinkedQueue<>();
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private final Duration firstToken;
  private final Duration perToken;
  private final LoopbackServer server;

  /**
   * @param provider the provider it speaks for, e.g. {@link ModelSettings#OPENAI}
   * @param noReplyError the provider's error body for a request that finds no reply queued
   */
  protected ModelStandIn(
      String provider, String noReplyError, Duration firstToken, Duration perToken) {
    this.provider = provider;
    this.noReplyError = noReplyError;
    this.firstToken = firstToken;
    this.perToken = perToken;
    this.server = LoopbackServer.start(this::handle);
  }

  /** The base URL to configure the provider's client with. */
  public abstract String baseUrl();

  /** The provider this stand-in speaks for, e.g. {@link ModelSettings#OPENAI}. */
  public String provider() {
    return provider;
  }

  /** Settings that point the provider's client at this stand-in (model {@code stand-in}). */
  public ModelSettings settings(Duration timeout) {
    return new ModelSettings(provider(), "stand-in", baseUrl(), "test-key", timeout);
  }

  /** The request bodies received, in order. */
  public List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  /** The server's own address, {@code http://127.0.0.1:<port>}. */
  protected String address() {
    return server.baseUrl();
  }

  protected void queue(R reply) {
    replies.add((exchange, body) -> answer(exchange, body, reply));
  }

  /** Drops the replies still queued, so that a test starts from none whatever others left. */
  public void clearReplies() {
    replies.clear();
  }

  /** Queues an HTTP error: {@code status} with the provider's error body saying {@code message}. */
  public void answerError(int status, String message) {
    replies.add((exchange, body) ->
        LoopbackServer.respond(exchange, status, "application/json", errorBody(message)));
  }

  /** Queues an answer that never comes: the request is read, the connection held open. */
  public void answerNothing() {
    replies.add((exchange, body) -> Thread.sleep(HUNG.toMillis()));
  }

  /** The provider's error body with {@code message}, as its API words it. */
  protected abstract String errorBody(String message);

  /** Answers the request ({@code body}) with {@code reply}, in the provider's wire format. */
  protected abstract void answer(HttpExchange exchange, JsonNode body, R reply)
      throws IOException, InterruptedException;

  /** Writes {@code tokens} at the stand-in's pace: the first after its delay, then one by one. */
  protected void paced(List<String> tokens, TokenWriter writer)
      throws IOException, InterruptedException {
    Thread.sleep(firstToken.toMillis());
    for (int i = 0; i < tokens.size(); i++) {
      if (i > 0) {
        Thread.sleep(perToken.toMillis());
      }
      writer.write(tokens.get(i));
    }
  }

  private void handle(HttpExchange exchange) throws IOException, InterruptedException {
    JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
    requests.add(body);
    Answer reply = replies.poll();
    if (reply == null) {
      LoopbackServer.respond(exchange, 500, "application/json", noReplyError);
      return;
    }
    reply.send(exchange, body);
  }

  @Override
  public void close() {
    server.close();
  }
}
