package dev.threadline.operator.worker;

import dev.threadline.operator.worker.mcp.McpConnections;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One worker replica's settings.
 *
 * @param holder {@code THREADLINE_WORKER_NAME}, default {@code POD_NAME}, else a random name: this
 *     replica's name in the claims it takes (unique among replicas)
 * @param claimTtl {@code THREADLINE_WORKER_CLAIM_SECONDS}, default 10: how long a claim lives
 *     without renewal; a stopped replica's runs go on elsewhere after at most this long. It is
 *     renewed every third of it
 * @param namespace the namespace to work in, or null for all
 * @param allowPrivateMcpTargets {@code THREADLINE_MCP_ALLOW_PRIVATE_TARGETS}, default false:
 *     whether an http MCP server may be on a private address (checked like a webhook's otherwise)
 */
public record WorkerSettings(
    String holder, Duration claimTtl, String namespace, boolean allowPrivateMcpTargets) {
  public static final Duration DEFAULT_CLAIM_TTL = Duration.ofSeconds(10);

  public WorkerSettings {
    Objects.requireNonNull(holder, "holder");
    claimTtl = claimTtl == null ? DEFAULT_CLAIM_TTL : claimTtl;
    if (claimTtl.toMillis() < 300) {
      throw new IllegalArgumentException("the worker's claim must live at least 300 ms");
    }
  }

  /** A worker with that name and claim lifetime, in one namespace (null: all). */
  public static WorkerSettings of(String holder, Duration claimTtl, String namespace) {
    return new WorkerSettings(holder, claimTtl, namespace, false);
  }

  public static WorkerSettings fromEnvironment(Map<String, String> env) {
    String name = env.get("THREADLINE_WORKER_NAME");
    if (name == null || name.isBlank()) {
      name = env.get("POD_NAME");
    }
    if (name == null || name.isBlank()) {
      name = "worker-" + UUID.randomUUID();
    }
    String ttl = env.getOrDefault("THREADLINE_WORKER_CLAIM_SECONDS", "10").strip();
    try {
      return new WorkerSettings(
          name.strip(),
          Duration.ofSeconds(Long.parseLong(ttl)),
          null,
          Boolean.parseBoolean(
              env.getOrDefault(McpConnections.ALLOW_PRIVATE_TARGETS, "false").strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "THREADLINE_WORKER_CLAIM_SECONDS must be a whole number, got: " + ttl);
    }
  }

  public WorkerSettings allowPrivateMcpTargets(boolean value) {
    return new WorkerSettings(holder, claimTtl, namespace, value);
  }

  Duration renewEvery() {
    return claimTtl.dividedBy(3);
  }
}
