package dev.threadline.operator.deltas;

import java.util.Map;

/**
 * How this replica serves the live channel of runs that asked for {@code streamTokens}.
 *
 * @param token {@code THREADLINE_DELTAS_TOKEN}: the internal token the api-server presents (the
 *     chart keeps it in a Secret both read); empty turns the channel off, and such runs stream
 *     durable events only
 * @param address {@code THREADLINE_DELTAS_ADDRESS}: the base URL other Pods reach this replica's
 *     HTTP port on, e.g. {@code http://10.1.2.3:8081} (the chart builds it from the Pod's IP);
 *     empty means the address of the port once it is served on loopback (the local mode)
 */
public record DeltaSettings(String token, String address) {
  public static final String TOKEN_VARIABLE = "THREADLINE_DELTAS_TOKEN";
  public static final String ADDRESS_VARIABLE = "THREADLINE_DELTAS_ADDRESS";

  public DeltaSettings {
    token = token == null ? "" : token.strip();
    address = address == null ? "" : address.strip();
    if (!address.isEmpty() && !address.matches("https?://[^/\\s]+")) {
      throw new IllegalArgumentException(
          ADDRESS_VARIABLE + " must be a base URL such as http://10.1.2.3:8081, got: " + address);
    }
  }

  public static DeltaSettings off() {
    return new DeltaSettings("", "");
  }

  public static DeltaSettings fromEnvironment(Map<String, String> env) {
    return new DeltaSettings(env.get(TOKEN_VARIABLE), env.get(ADDRESS_VARIABLE));
  }

  public boolean enabled() {
    return !token.isEmpty();
  }

  public DeltaSettings withAddress(String value) {
    return new DeltaSettings(token, value);
  }

  /** Never prints the token. */
  @Override
  public String toString() {
    return "DeltaSettings[token="
        + (token.isEmpty() ? "none" : "***")
        + ", address="
        + address
        + "]";
  }
}
