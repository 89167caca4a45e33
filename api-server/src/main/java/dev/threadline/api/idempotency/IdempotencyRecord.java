package dev.threadline.api.idempotency;

import dev.threadline.crds.common.ThreadlineGroup;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One idempotency key's record, as kept in a ConfigMap in the user's namespace: the request's
 * fingerprint, whether the first request is still in flight, when it was claimed and expires, and
 * what it produced.
 */
record IdempotencyRecord(
    String fingerprint,
    State state,
    Instant claimedAt,
    Instant expiresAt,
    Optional<StoredResult> result) {
  enum State {
    IN_FLIGHT,
    DONE
  }

  /** Marks the ConfigMaps that are idempotency records (for the sweep). */
  static final String LABEL = ThreadlineGroup.GROUP + "/idempotency-record";

  private static final String FINGERPRINT = "fingerprint";
  private static final String STATE = "state";
  private static final String CLAIMED_AT = "claimedAt";
  private static final String EXPIRES_AT = "expiresAt";
  private static final String KIND = "result.kind";
  private static final String STATUS = "result.status";
  private static final String LOCATION = "result.location";
  private static final String BODY = "result.body";
  private static final String NAMESPACE = "result.namespace";
  private static final String RUN = "result.run";

  static IdempotencyRecord claim(String fingerprint, Instant now, Duration ttl) {
    return new IdempotencyRecord(
        fingerprint, State.IN_FLIGHT, now, now.plus(ttl), Optional.empty());
  }

  IdempotencyRecord done(StoredResult outcome) {
    return new IdempotencyRecord(
        fingerprint, State.DONE, claimedAt, expiresAt, Optional.of(outcome));
  }

  boolean expired(Instant now) {
    return !now.isBefore(expiresAt);
  }

  /** An in-flight claim older than the lease was abandoned (its server died mid-request). */
  boolean abandoned(Instant now, Duration lease) {
    return state == State.IN_FLIGHT && !now.isBefore(claimedAt.plus(lease));
  }

  ConfigMap toConfigMap(String namespace, String name) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(FINGERPRINT, fingerprint);
    data.put(STATE, state.name());
    data.put(CLAIMED_AT, claimedAt.toString());
    data.put(EXPIRES_AT, expiresAt.toString());
    result.ifPresent(stored -> {
      switch (stored) {
        case StoredResult.Json json -> {
          data.put(KIND, "json");
          data.put(STATUS, Integer.toString(json.status()));
          if (json.location() != null) {
            data.put(LOCATION, json.location());
          }
          data.put(BODY, json.body());
        }
        case StoredResult.StartedRun run -> {
          data.put(KIND, "run");
          data.put(NAMESPACE, run.namespace());
          data.put(RUN, run.runName());
        }
      }
    });
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .addToLabels(LABEL, "true")
        .endMetadata()
        .withData(data)
        .build();
  }

  /** Empty for a ConfigMap that is not a readable record (then it is treated as expired). */
  static Optional<IdempotencyRecord> from(ConfigMap configMap) {
    Map<String, String> data = Objects.requireNonNullElse(configMap.getData(), Map.of());
    try {
      Optional<StoredResult> result =
          switch (data.getOrDefault(KIND, "")) {
            case "json" ->
                Optional.of(
                    new StoredResult.Json(
                        Integer.parseInt(data.get(STATUS)),
                        data.get(LOCATION),
                        Objects.requireNonNull(data.get(BODY))));
            case "run" ->
                Optional.of(
                    new StoredResult.StartedRun(
                        Objects.requireNonNull(data.get(NAMESPACE)),
                        Objects.requireNonNull(data.get(RUN))));
            default -> Optional.empty();
          };
      return Optional.of(
          new IdempotencyRecord(
              Objects.requireNonNull(data.get(FINGERPRINT)),
              State.valueOf(data.get(STATE)),
              Instant.parse(data.get(CLAIMED_AT)),
              Instant.parse(data.get(EXPIRES_AT)),
              result));
    } catch (RuntimeException unreadable) {
      return Optional.empty();
    }
  }
}
