package dev.threadline.core.image;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A module's Dockerfile, read as far as the image tests need: its instructions in order, with line
 * continuations joined and comments dropped. Shared with the modules that build images through
 * core's test jar.
 */
public record Dockerfile(List<Instruction> instructions) {

  /** One instruction: its keyword in upper case and the rest of the (joined) line. */
  public record Instruction(String keyword, String arguments) {}

  /** A {@code COPY} from the build context (not {@code --from} a stage or an image). */
  public record ContextCopy(List<String> sources, String destination) {}

  public static Dockerfile read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Dockerfile parse(String text) {
    List<Instruction> instructions = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      String trimmed = line.strip();
      if (trimmed.startsWith("#") || (trimmed.isEmpty() && pending.isEmpty())) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        pending.append(trimmed.substring(0, trimmed.length() - 1).strip()).append(' ');
        continue;
      }
      String joined = pending.append(trimmed).toString().strip();
      pending.setLength(0);
      if (!joined.isEmpty()) {
        String[] parts = joined.split("\\s+", 2);
        instructions.add(
            new Instruction(parts[0].toUpperCase(Locale.ROOT), parts.length > 1 ? parts[1] : ""));
      }
    }
    return new Dockerfile(List.copyOf(instructions));
  }

  public List<String> arguments(String keyword) {
    return instructions.stream()
        .filter(i -> i.keyword().equals(keyword))
        .map(Instruction::arguments)
        .toList();
  }

  /** The last value of {@code keyword} (the final stage's, for FROM, USER, ENTRYPOINT). */
  public String last(String keyword) {
    List<String> all = arguments(keyword);
    if (all.isEmpty()) {
      throw new AssertionError("the Dockerfile has no " + keyword);
    }
    return all.getLast();
  }

  public List<ContextCopy> contextCopies() {
    return arguments("COPY").stream()
        .filter(arguments -> !arguments.startsWith("--from="))
        .map(arguments -> {
          List<String> words =
              Arrays.stream(arguments.split("\\s+")).filter(w -> !w.startsWith("--")).toList();
          return new ContextCopy(words.subList(0, words.size() - 1), words.getLast());
        })
        .toList();
  }

  /**
   * The final ENTRYPOINT, which must use the exec (JSON array) form: a shell form would not get
   * signals.
   */
  public List<String> entrypoint() {
    String entrypoint = last("ENTRYPOINT");
    try {
      return new ObjectMapper().readValue(entrypoint, new TypeReference<List<String>>() {});
    } catch (IOException e) {
      throw new AssertionError("ENTRYPOINT is not in exec form (a JSON array): " + entrypoint, e);
    }
  }
}
