package dev.threadline.core.environment;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown by {@link DockerfileRenderer} when asked to render a spec that {@link ImageSpecValidator}
 * rejects: the renderer never writes an unchecked name into a {@code RUN} line, even when a caller
 * forgot to validate first.
 */
public final class InvalidImageSpecException extends IllegalArgumentException {

  private final List<FieldError> errors;

  public InvalidImageSpecException(List<FieldError> errors) {
    super(
        errors.stream()
            .map(error -> error.field() + ": " + error.message())
            .collect(Collectors.joining("; ")));
    this.errors = List.copyOf(errors);
  }

  public List<FieldError> errors() {
    return errors;
  }
}
