package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrdResourcesTest {

  @Test
  void findsTheCommittedThreadlineCrdsOnTheClasspath() {
    List<URL> crds = CrdResources.threadlineCrds(getClass().getClassLoader());

    assertThat(crds)
        .extracting(URL::getPath)
        .anyMatch(p -> p.endsWith("environments.threadline.dev.yaml"))
        .anyMatch(p -> p.endsWith("agents.threadline.dev.yaml"))
        .allMatch(
            p -> p.contains("/META-INF/threadline/crds/") && p.endsWith(".threadline.dev.yaml"));
  }

  @Test
  void findsThemInsideAJarToo(@TempDir Path temp) throws IOException {
    Path jar = temp.resolve("crds.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      // Directory entries, as the maven-jar-plugin writes them.
      out.putNextEntry(new JarEntry("META-INF/"));
      out.putNextEntry(new JarEntry("META-INF/threadline/"));
      out.putNextEntry(new JarEntry("META-INF/threadline/crds/"));
      entry(out, "META-INF/threadline/crds/things.threadline.dev.yaml");
      entry(out, "META-INF/threadline/crds/things.threadline.dev.yml.orig");
      entry(out, "META-INF/threadline/crds/other.example.dev.yaml");
    }

    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      List<URL> crds = CrdResources.threadlineCrds(loader);

      assertThat(crds)
          .extracting(URL::toString)
          .singleElement()
          .asString()
          .startsWith("jar:file:")
          .endsWith("crds.jar!/META-INF/threadline/crds/things.threadline.dev.yaml");
    }
  }

  private static void entry(JarOutputStream out, String name) throws IOException {
    out.putNextEntry(new JarEntry(name));
    OutputStream stream = out;
    stream.write("kind: CustomResourceDefinition\n".getBytes(StandardCharsets.UTF_8));
    out.closeEntry();
  }
}
