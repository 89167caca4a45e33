package dev.threadline.operator.deltas;

import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.crds.run.Run;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This replica's live sessions. A producer opens one for a run that asked for {@code streamTokens},
 * writes its URL to {@code status.deltaChannel} and streams into it; the api-server replica that
 * serves the run's stream reads it through {@link DeltaEndpoint}. A closed session is kept for
 * {@link #RETENTION} so that a reader that connects late still gets it whole.
 */
public final class DeltaHub {
  static final Duration RETENTION = Duration.ofSeconds(60);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final DeltaSettings settings;
  private final Map<String, DeltaSession> sessions = new ConcurrentHashMap<>();
  private volatile String address;

  public DeltaHub(DeltaSettings settings) {
    this.settings = settings;
    this.address = settings.address();
  }

  /** A hub that never opens a session (the channel is off). */
  public static DeltaHub off() {
    return new DeltaHub(DeltaSettings.off());
  }

  /** Learns the address the HTTP port was served on, unless one was configured. */
  public void served(String baseUrl) {
    if (address.isEmpty()) {
      address = baseUrl;
    }
  }

  /**
   * A new session for the run when it asked for deltas and this replica can serve them; empty
   * otherwise (the run then streams its durable events only).
   */
  public Optional<DeltaSession> open(Run run) {
    if (!Boolean.TRUE.equals(run.getSpec().getStreamTokens())
        || !settings.enabled()
        || address.isEmpty()) {
      return Optional.empty();
    }
    sweep();
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    DeltaSession session = new DeltaSession(HexFormat.of().formatHex(bytes));
    sessions.put(session.id(), session);
    return Optional.of(session);
  }

  /** The URL a reader gets the session from: what {@code status.deltaChannel} holds. */
  public String url(DeltaSession session) {
    return address + DeltaWire.PATH + session.id();
  }

  Optional<DeltaSession> find(String id) {
    return Optional.ofNullable(sessions.get(id));
  }

  String token() {
    return settings.token();
  }

  private void sweep() {
    Instant expired = Instant.now().minus(RETENTION);
    sessions.values().removeIf(session -> session.closedBefore(expired));
  }
}
