package dev.threadline.api.a2a;

/**
 * Where A2A is served. Every agent has its endpoint {@code /a2a/agents/<agentId>} and its card
 * below it; {@code /a2a} is the endpoint of threads without an agent, and its card is also the
 * server's at the well-known path.
 */
public final class A2aPaths {
  /** The protocol version the cards announce (the Java SDK's, io.github.a2asdk 0.3.2). */
  public static final String PROTOCOL_VERSION = "0.3.0";

  /** The A2A 0.3 well-known card path, relative to an endpoint (and at the server's root). */
  public static final String CARD = "/.well-known/agent-card.json";

  public static final String BASE = "/a2a";
  public static final String AGENTS = BASE + "/agents";

  private A2aPaths() {}

  /** The endpoint of an agent ({@code null}: threads without an agent). */
  static String endpoint(String agentId) {
    return agentId == null ? BASE : AGENTS + "/" + agentId;
  }
}
