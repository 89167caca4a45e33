package dev.threadline.api.webhooks;

import java.util.List;

/**
 * One item of a request's {@code webhooks}: {@code url} required; {@code events} optional (absent
 * or empty: every event the resource has); {@code secret} optional ({@code whsec_} and the base64
 * of at least 24 bytes; absent: the stored one of the same URL is kept, or a new one generated).
 * Events are read as strings so that an unknown name is a 400 naming its position.
 */
public record WebhookInput(String url, List<String> events, String secret) {}
