package dev.threadline.api.threads;

import dev.threadline.api.webhooks.WebhookView;
import java.util.List;

/**
 * The schedule in {@code {thread, schedule}}: the fields the contract names there, and {@code
 * webhooks} as a schedule shows them (a generated secret only in this answer).
 */
public record ScheduleSummary(
    String id,
    String name,
    String scheduleType,
    String cronExpression,
    boolean enabled,
    List<WebhookView> webhooks) {}
