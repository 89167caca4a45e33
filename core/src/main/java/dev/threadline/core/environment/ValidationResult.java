package dev.threadline.core.environment;

import java.util.List;

/**
 * The outcome of checking Dockerfile extensions, shaped like the contract's validate response.
 *
 * @param valid false when at least one finding is an error (the build would fail to parse)
 * @param warnings every finding, errors and warnings alike, each {@code "line N: ..."} with N
 *     counted from 1 within the extensions text
 */
public record ValidationResult(boolean valid, List<String> warnings) {
  public ValidationResult {
    warnings = List.copyOf(warnings);
  }
}
