package dev.threadline.operator.pool;

import io.fabric8.kubernetes.api.model.OwnerReference;
import java.time.Duration;
import java.util.Map;

/**
 * Who takes a pool sandbox, and what the claim makes of the Pod: the claimant's labels (which put
 * the Pod under the claimant's NetworkPolicy and informers), its owner (the Pod goes with it), and
 * how long the Pod may live from the claim (none for a container, which lives until it expires).
 *
 * @param describes the claimant for the log, like {@code Run(ns/name)}
 * @param deadline the Pod's lifetime from the claim, or null for none
 */
public record PoolClaimant(
    String namespace,
    String describes,
    Map<String, String> labels,
    OwnerReference owner,
    Duration deadline) {}
