package dev.threadline.api.webhooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One webhook as REST clients see it. {@code events} is empty when the endpoint takes every event.
 * {@code secret} is present only in the answer to the write that generated it (shown once, like an
 * API key); stored secrets and secrets the client sent are never returned.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WebhookView(String url, List<String> events, String secret) {}
