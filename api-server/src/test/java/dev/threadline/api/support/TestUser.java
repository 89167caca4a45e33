package dev.threadline.api.support;

/** A user the tests created: id, tenant namespace, and a valid API key. */
public record TestUser(String userId, String namespace, String key) {}
