package dev.threadline.api.usage;

import dev.threadline.api.auth.Tenant;

/** Asked before anything executes on a user's behalf (a message, a schedule trigger). */
@FunctionalInterface
public interface ExecutionAllowance {
  /** For callers that do not limit usage (tests of other features). */
  ExecutionAllowance UNLIMITED = tenant -> {};

  /**
   * @throws dev.threadline.api.errors.UsageExhaustedException 402 when the month's allowance is
   *     used up
   */
  void requireAllowance(Tenant tenant);
}
