package dev.threadline.operator.webhooks;

import dev.threadline.crds.webhook.WebhookEndpoint;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * One endpoint that gets an event, and the Agent, Environment or Schedule whose spec.webhooks names
 * it.
 */
public record WebhookRecipient(HasMetadata configuredOn, WebhookEndpoint endpoint) {}
