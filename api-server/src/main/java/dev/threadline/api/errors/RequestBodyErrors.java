package dev.threadline.api.errors;

import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidDefinitionException;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * Turns a failure to read a JSON request body into a 400 message that names the field, using the
 * path Jackson records in its exception ({@code metadata must be an object}).
 */
final class RequestBodyErrors {
  private RequestBodyErrors() {}

  /**
   * The client-facing message for an unreadable body, or empty when the failure is ours (e.g. a DTO
   * Jackson cannot construct), which must surface as a 500.
   */
  static Optional<String> describe(Throwable unreadable) {
    JacksonException jackson = findJackson(unreadable);
    if (jackson == null) {
      return Optional.of("Request body could not be read as JSON");
    }
    if (jackson instanceof InvalidDefinitionException) {
      return Optional.empty();
    }
    if (jackson instanceof InputCoercionException coercion) {
      String field = pathOf(jackson);
      field = field.isEmpty() ? parserPath(coercion) : field;
      return Optional.of(
          field.isEmpty()
              ? "A number in the request body is out of range"
              : field + " is out of range");
    }
    if (!(jackson instanceof DatabindException)) {
      return Optional.of("Malformed JSON body: " + firstLine(jackson.getOriginalMessage()));
    }
    String path = pathOf(jackson);
    if (jackson instanceof MismatchedInputException mismatch) {
      boolean fractional = mismatch.getCurrentToken() == JsonToken.VALUE_NUMBER_FLOAT;
      String expected = JsonTypeNames.describe(mismatch.getTargetType(), fractional);
      return Optional.of(
          path.isEmpty() ? "Request body must be " + expected : path + " must be " + expected);
    }
    return Optional.of(path.isEmpty() ? "Request body is invalid" : path + " has an invalid value");
  }

  /** {@code a.b[2].c} from Jackson's reference chain; empty for the root. */
  static String pathOf(JacksonException exception) {
    StringBuilder path = new StringBuilder();
    for (JacksonException.Reference reference : exception.getPath()) {
      if (reference.getPropertyName() != null) {
        if (!path.isEmpty()) {
          path.append('.');
        }
        path.append(reference.getPropertyName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /**
   * {@code a.b[2].c} from where the parser stood: a number too large for its type fails while it is
   * read, before the exception gets a reference chain.
   */
  private static String parserPath(StreamReadException failure) {
    JsonParser parser = failure.processor();
    if (parser == null) {
      return "";
    }
    StringBuilder path = new StringBuilder();
    for (TokenStreamContext context = parser.streamReadContext();
        context != null && !context.inRoot();
        context = context.getParent()) {
      if (context.inArray()) {
        path.insert(0, "[" + context.getCurrentIndex() + "]");
      } else if (context.currentName() != null) {
        path.insert(0, "." + context.currentName());
      }
    }
    return path.isEmpty() || path.charAt(0) != '.' ? path.toString() : path.substring(1);
  }

  private static JacksonException findJackson(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof JacksonException jackson) {
        return jackson;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  private static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return "unreadable input";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message.strip() : message.substring(0, newline).strip();
  }
}
