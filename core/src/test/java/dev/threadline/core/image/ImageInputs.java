package dev.threadline.core.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Checks, after {@code package}, that a module's Dockerfile can be built from what Maven left in
 * {@code target/image} (the image layout the root pom's assembly execution makes).
 */
public final class ImageInputs {
  /** The only folder a Dockerfile copies from; .dockerignore sends nothing else to the builder. */
  public static final String LAYOUT = "target/image";

  private ImageInputs() {}

  /** The module folder: the build context, and the working directory of its tests. */
  public static Path module() {
    return Path.of("").toAbsolutePath();
  }

  /** Every COPY from the build context names something under target/image that exists. */
  public static void assertCopiesOnlyFromTheLayout(Dockerfile dockerfile) {
    List<Dockerfile.ContextCopy> copies = dockerfile.contextCopies();
    assertThat(copies).as("COPY instructions from the build context").isNotEmpty();
    for (Dockerfile.ContextCopy copy : copies) {
      for (String source : copy.sources()) {
        assertThat(source).as("COPY source").startsWith(LAYOUT + "/");
        assertThat(module().resolve(source))
            .as("COPY source %s (made by ./mvnw package)", source)
            .exists();
      }
    }
  }

  /**
   * The image runs {@code java -cp <dir>/* <main>} and {@code <dir>} is where target/image/lib is
   * copied; that lib holds the module jar, whose {@code main} is loadable from those jars alone.
   */
  public static void assertRunsMainFromTheLayoutLib(Dockerfile dockerfile, Class<?> main) {
    List<String> entrypoint = dockerfile.entrypoint();
    assertThat(entrypoint.getFirst()).isEqualTo("java");
    assertThat(entrypoint.getLast()).as("main class").isEqualTo(main.getName());
    int cp = entrypoint.indexOf("-cp");
    assertThat(cp).as("-cp in the ENTRYPOINT").isPositive();
    String classPath = entrypoint.get(cp + 1);
    assertThat(classPath).endsWith("/*");
    String libDirectory = classPath.substring(0, classPath.length() - "/*".length());
    assertThat(dockerfile.contextCopies())
        .as("a COPY of %s/lib to %s", LAYOUT, libDirectory)
        .contains(new Dockerfile.ContextCopy(List.of(LAYOUT + "/lib"), libDirectory));
    assertThat(loadFromLib(main.getName()).getModifiers() & Modifier.STATIC).isNotZero();
  }

  private static Method loadFromLib(String className) {
    try (Stream<Path> files = Files.list(module().resolve(LAYOUT + "/lib"))) {
      URL[] jars =
          files
              .filter(f -> f.toString().endsWith(".jar"))
              .map(ImageInputs::url)
              .toArray(URL[]::new);
      // The platform loader as parent: the test class path must not stand in for a missing jar.
      try (URLClassLoader lib = new URLClassLoader(jars, ClassLoader.getPlatformClassLoader())) {
        return Class.forName(className, false, lib).getMethod("main", String[].class);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("cannot load " + className + " from " + LAYOUT + "/lib", e);
    }
  }

  private static URL url(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
