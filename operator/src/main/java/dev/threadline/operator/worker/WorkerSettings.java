package dev.threadline.operator.worker;

import dev.threadline.operator.config.SettingValues;
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
 * @param maxLoops {@value #LOOPS_VARIABLE}, default {@value #DEFAULT_LOOPS} (1 to {@value
 *     #MAX_LOOPS}): how many agent loops this replica runs at once; past it, it claims no new run
 *     (another replica does, or this one once a loop ends)
 * @param inputTimeout {@value #INPUT_TIMEOUT_VARIABLE}, default 3600: how long a run waits for a
 *     person (an approval, an answer to the model's question); past it the call is denied
 * @param inputRelease {@value #INPUT_RELEASE_VARIABLE}, default 300: how long a run waits for a
 *     person with its sandbox; past it the workspace is kept and the sandbox given back, and the
 *     run takes one again when answered (docs/approvals.md)
 */
public record WorkerSettings(
    String holder,
    Duration claimTtl,
    String namespace,
    boolean allowPrivateMcpTargets,
    int maxLoops,
    Duration inputTimeout,
    Duration inputRelease) {
  public static final String INPUT_TIMEOUT_VARIABLE = "THREADLINE_WORKER_INPUT_TIMEOUT_SECONDS";
  public static final Duration DEFAULT_INPUT_TIMEOUT = Duration.ofHours(1);
  public static final String INPUT_RELEASE_VARIABLE = "THREADLINE_WORKER_INPUT_RELEASE_SECONDS";
  public static final Duration DEFAULT_INPUT_RELEASE = Duration.ofMinutes(5);
  private static final int MAX_WAIT_SECONDS = (int) Duration.ofDays(7).toSeconds();

  public static final Duration DEFAULT_CLAIM_TTL = Duration.ofSeconds(10);
  public static final String LOOPS_VARIABLE = "THREADLINE_OPERATOR_WORKER_LOOPS";

  /** What one replica was measured to carry (benchmarks: 1,000 loops against a slow model). */
  public static final int DEFAULT_LOOPS = 1000;

  public static final int MAX_LOOPS = 100_000;

  public WorkerSettings {
    Objects.requireNonNull(holder, "holder");
    claimTtl = claimTtl == null ? DEFAULT_CLAIM_TTL : claimTtl;
    inputTimeout = inputTimeout == null ? DEFAULT_INPUT_TIMEOUT : inputTimeout;
    if (inputTimeout.isNegative() || inputTimeout.isZero()) {
      throw new IllegalArgumentException(INPUT_TIMEOUT_VARIABLE + " must be positive");
    }
    inputRelease = inputRelease == null ? DEFAULT_INPUT_RELEASE : inputRelease;
    if (inputRelease.isNegative() || inputRelease.isZero()) {
      throw new IllegalArgumentException(INPUT_RELEASE_VARIABLE + " must be positive");
    }
    if (claimTtl.toMillis() < 300) {
      throw new IllegalArgumentException("the worker's claim must live at least 300 ms");
    }
    if (maxLoops < 1 || maxLoops > MAX_LOOPS) {
      throw new IllegalArgumentException(
          LOOPS_VARIABLE + " must be from 1 to " + MAX_LOOPS + ", got: " + maxLoops);
    }
  }

  /** A worker with that name and claim lifetime, in one namespace (null: all). */
  public static WorkerSettings of(String holder, Duration claimTtl, String namespace) {
    return new WorkerSettings(holder, claimTtl, namespace, false, DEFAULT_LOOPS, null, null);
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
    int loops = SettingValues.between(env, LOOPS_VARIABLE, DEFAULT_LOOPS, 1, MAX_LOOPS);
    int inputTimeout =
        SettingValues.between(
            env,
            INPUT_TIMEOUT_VARIABLE,
            (int) DEFAULT_INPUT_TIMEOUT.toSeconds(),
            1,
            MAX_WAIT_SECONDS);
    int inputRelease =
        SettingValues.between(
            env,
            INPUT_RELEASE_VARIABLE,
            (int) DEFAULT_INPUT_RELEASE.toSeconds(),
            1,
            MAX_WAIT_SECONDS);
    try {
      return new WorkerSettings(
          name.strip(),
          Duration.ofSeconds(Long.parseLong(ttl)),
          null,
          Boolean.parseBoolean(
              env.getOrDefault(McpConnections.ALLOW_PRIVATE_TARGETS, "false").strip()),
          loops,
          Duration.ofSeconds(inputTimeout),
          Duration.ofSeconds(inputRelease));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "THREADLINE_WORKER_CLAIM_SECONDS must be a whole number, got: " + ttl);
    }
  }

  public WorkerSettings allowPrivateMcpTargets(boolean value) {
    return new WorkerSettings(
        holder, claimTtl, namespace, value, maxLoops, inputTimeout, inputRelease);
  }

  public WorkerSettings withMaxLoops(int value) {
    return new WorkerSettings(
        holder, claimTtl, namespace, allowPrivateMcpTargets, value, inputTimeout, inputRelease);
  }

  public WorkerSettings withInputTimeout(Duration value) {
    return new WorkerSettings(
        holder, claimTtl, namespace, allowPrivateMcpTargets, maxLoops, value, inputRelease);
  }

  public WorkerSettings withInputRelease(Duration value) {
    return new WorkerSettings(
        holder, claimTtl, namespace, allowPrivateMcpTargets, maxLoops, inputTimeout, value);
  }

  Duration renewEvery() {
    return claimTtl.dividedBy(3);
  }
}
