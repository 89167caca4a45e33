package dev.threadline.api.environments;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The abbreviated environment of a list: the contract's id, name, buildStatus, isDefault,
 * createdAt.
 */
public record EnvironmentSummary(
    String id,
    String name,
    String buildStatus,
    @JsonProperty("isDefault") boolean isDefault,
    String createdAt) {}
