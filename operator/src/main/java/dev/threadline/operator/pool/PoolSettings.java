package dev.threadline.operator.pool;

import dev.threadline.operator.config.SettingValues;
import java.util.Map;

/**
 * Limits of warm pools.
 *
 * @param maxReady {@code THREADLINE_WARM_POOL_MAX_READY}, default 20: the most unclaimed pool
 *     sandboxes the operator keeps across the whole cluster (the chart's {@code
 *     warmPools.maxReady}); environments asking for more get fewer, first come first served
 */
public record PoolSettings(int maxReady) {
  public PoolSettings {
    if (maxReady < 0) {
      throw new IllegalArgumentException("THREADLINE_WARM_POOL_MAX_READY cannot be negative");
    }
  }

  public static PoolSettings fromEnvironment(Map<String, String> env) {
    return new PoolSettings((int) SettingValues.whole(env, "THREADLINE_WARM_POOL_MAX_READY", 20));
  }
}
