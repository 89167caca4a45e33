package dev.threadline.api.schedules;

import dev.threadline.api.webhooks.WebhookInput;
import java.util.List;
import java.util.Map;

/**
 * Request bodies of the schedule endpoints. Unknown fields are ignored; absent and null are alike.
 */
final class ScheduleRequests {
  private ScheduleRequests() {}

  /**
   * {@code POST /v1/schedules}: {@code name}, {@code task} and {@code scheduleType} required;
   * {@code cronExpression} for recurring, {@code scheduledTime} for one-time schedules. {@code
   * appId} is accepted beyond the contract (the list filters on it), and so are {@code webhooks}.
   */
  record Create(
      String name,
      String task,
      String scheduleType,
      String cronExpression,
      String scheduledTime,
      String agentId,
      String environmentId,
      String timezone,
      Boolean enabled,
      String description,
      String appId,
      Map<String, Object> metadata,
      List<WebhookInput> webhooks) {}

  /**
   * {@code PATCH /v1/schedules/:id}: the contract's fields, plus {@code description} and {@code
   * webhooks} (given: replaces the whole list; {@code []} removes them all).
   */
  record Update(
      String name,
      String task,
      String cronExpression,
      String timezone,
      Boolean enabled,
      String description,
      List<WebhookInput> webhooks) {}
}
