package dev.threadline.api.idempotency;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import java.net.URI;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs a POST at most once per {@code Idempotency-Key} (per user, for 24 h): the first request does
 * the work and records its result; a repeat with the same method, path and body gets that result; a
 * repeat with a different request is 422; a repeat while the first is in flight is 409. A first
 * request that fails records nothing, so the client can retry with the same key.
 */
public final class IdempotentRequests {
  /** Set on responses that repeat a first result, so a client can tell. */
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";

  private final IdempotencyStore store;
  private final JsonMapper json;

  IdempotentRequests(IdempotencyStore store, JsonMapper json) {
    this.store = store;
    this.json = json;
  }

  /** A first request's response and what a repeat needs to answer the same. */
  public record Recorded<T>(T response, StoredResult result) {}

  /**
   * Without a key, just {@code first}. With one: {@code first} for the first request, {@code
   * repeat} with its recorded result for a repeat. {@code fingerprint} is computed only with a key
   * (it serialises and hashes the body).
   */
  public <T> T execute(
      Tenant tenant,
      String key,
      Supplier<RequestFingerprint> fingerprint,
      Supplier<Recorded<T>> first,
      Function<StoredResult, T> repeat) {
    if (key == null) {
      return first.get().response();
    }
    IdempotencyKeys.validate(key);
    RequestFingerprint request = fingerprint.get();
    return switch (store.claim(tenant.namespace(), key, request)) {
      case IdempotencyStore.Claimed claimed -> {
        Recorded<T> recorded;
        try {
          recorded = first.get();
        } catch (RuntimeException failed) {
          store.release(claimed);
          throw failed;
        }
        store.complete(claimed, recorded.result());
        yield recorded.response();
      }
      case IdempotencyStore.Taken taken -> {
        if (!taken.state().fingerprint().equals(request.hash())) {
          throw ApiException.unprocessable(
              IdempotencyKeys.HEADER
                  + " was already used with a different request "
                  + "(method, path or body) in the last 24 h; use a new key for a new request");
        }
        if (taken.state().result().isEmpty()) {
          throw ApiException.conflict(
              "A request with this "
                  + IdempotencyKeys.HEADER
                  + " is still in progress; retry once it has finished");
        }
        yield repeat.apply(taken.state().result().get());
      }
    };
  }

  /**
   * {@link #execute} for endpoints that answer with a small JSON body, which is what gets recorded.
   */
  public ResponseEntity<?> executeJson(
      Tenant tenant,
      String key,
      Supplier<RequestFingerprint> fingerprint,
      Supplier<ResponseEntity<?>> action) {
    return execute(
        tenant,
        key,
        fingerprint,
        () -> {
          ResponseEntity<?> response = action.get();
          return new Recorded<>(response, record(response));
        },
        this::replay);
  }

  /**
   * {@link #executeJson} for a response that shows secrets once: they are not recorded, and a
   * repeat gets them from where they are stored (see {@link ResponseSecrets}).
   */
  public ResponseEntity<?> executeJson(
      Tenant tenant,
      String key,
      Supplier<RequestFingerprint> fingerprint,
      Supplier<ResponseEntity<?>> action,
      ResponseSecrets secrets) {
    return execute(
        tenant,
        key,
        fingerprint,
        () -> {
          ResponseEntity<?> response = action.get();
          return new Recorded<>(response, record(response, secrets));
        },
        result -> replay(tenant, result, secrets));
  }

  /** The JSON response a repeat gets: the first one's status, Location and body. */
  private ResponseEntity<?> replay(StoredResult result) {
    return replay(result, UnaryOperator.identity());
  }

  /**
   * The JSON response a repeat gets when the first showed secrets once (recorded by {@link
   * #record(ResponseEntity, ResponseSecrets)}): its status, Location and body, the secrets
   * restored.
   */
  public ResponseEntity<?> replay(Tenant tenant, StoredResult result, ResponseSecrets secrets) {
    return replay(result, body -> secrets.restore(tenant, body));
  }

  private ResponseEntity<?> replay(StoredResult result, UnaryOperator<JsonNode> restore) {
    if (!(result instanceof StoredResult.Json stored)) {
      throw new IllegalStateException("not a JSON result: " + result);
    }
    ResponseEntity.BodyBuilder builder =
        ResponseEntity.status(stored.status())
            .contentType(MediaType.APPLICATION_JSON)
            .header(REPLAYED_HEADER, "true");
    if (stored.location() != null) {
      builder.location(URI.create(stored.location()));
    }
    return builder.body(restore.apply(json.readTree(stored.body())));
  }

  /** What to record of a JSON response. */
  private StoredResult record(ResponseEntity<?> response) {
    return record(response, null);
  }

  /**
   * What to record of a JSON response (for {@link #execute}); {@code secrets}, when not null, keeps
   * what it shows once out of the record.
   */
  public StoredResult record(ResponseEntity<?> response, ResponseSecrets secrets) {
    String location = response.getHeaders().getFirst(HttpHeaders.LOCATION);
    JsonNode body = json.valueToTree(response.getBody());
    if (secrets != null) {
      body = secrets.withhold(body);
    }
    return new StoredResult.Json(
        response.getStatusCode().value(), location, json.writeValueAsString(body));
  }
}
