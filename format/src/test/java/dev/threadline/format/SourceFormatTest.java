package dev.threadline.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.googlejavaformat.java.Formatter;
import com.google.googlejavaformat.java.FormatterException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java file of the project is formatted as google-java-format formats it, so that diffs carry
 * meaning, not whitespace. Run with {@code -Dthreadline.format.fix=true} to format the files in
 * place.
 */
class SourceFormatTest {
  private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();
  private static final String FIX = "./mvnw -q -pl format test -Dthreadline.format.fix=true";

  @Test
  void everyJavaFileIsFormatted() throws IOException {
    List<Path> sources = javaSources();
    assertThat(sources).as("Java sources under " + PROJECT).hasSizeGreaterThan(100);
    boolean fix = Boolean.getBoolean("threadline.format.fix");

    List<String> unformatted =
        sources.parallelStream()
            .filter(file -> !isFormatted(file, fix))
            .map(file -> PROJECT.relativize(file).toString())
            .sorted()
            .toList();

    assertThat(unformatted)
        .as("files not formatted by google-java-format; to format them, run " + FIX)
        .isEmpty();
  }

  /** Whether the file is formatted; with {@code fix}, formats it in place and says yes. */
  private static boolean isFormatted(Path file, boolean fix) {
    try {
      String source = Files.readString(file);
      String formatted = new Formatter().formatSourceAndFixImports(source);
      if (formatted.equals(source)) {
        return true;
      }
      if (fix) {
        Files.writeString(file, stable(formatted));
        return true;
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (FormatterException e) {
      throw new AssertionError(PROJECT.relativize(file) + " does not parse: " + e.getMessage(), e);
    }
  }

  /** Formats again until nothing changes: wrapping a long string can make one more change due. */
  private static String stable(String formatted) throws FormatterException {
    String previous;
    String current = formatted;
    do {
      previous = current;
      current = new Formatter().formatSourceAndFixImports(previous);
    } while (!current.equals(previous));
    return current;
  }

  /** The {@code src} trees of every module: build output and other checkouts are not sources. */
  private static List<Path> javaSources() throws IOException {
    try (Stream<Path> modules = Files.list(PROJECT)) {
      return modules
          .filter(module -> Files.isDirectory(module.resolve("src")))
          .flatMap(module -> walk(module.resolve("src")))
          .filter(file -> file.toString().endsWith(".java"))
          .toList();
    }
  }

  private static Stream<Path> walk(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
