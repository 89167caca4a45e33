package dev.threadline.core.environment;

/**
 * A rendered Dockerfile and its build hash.
 *
 * @param content the complete Dockerfile, as served by {@code GET .../dockerfile} and put in the
 *     build context
 * @param buildHash the hash of everything that shapes the image
 */
public record EffectiveDockerfile(String content, BuildHash buildHash) {}
