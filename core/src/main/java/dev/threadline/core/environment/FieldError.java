package dev.threadline.core.environment;

/**
 * One problem with a request, located by the field path the client sent (e.g. {@code
 * runtimes.python}, {@code packages.system[2]}), so that a 400 can name it.
 */
public record FieldError(String field, String message) {}
