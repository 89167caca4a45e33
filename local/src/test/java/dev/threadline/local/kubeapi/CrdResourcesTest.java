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
  void findsTheGeneratedThreadlineCrdsOnTheClasspath() {
    List<URL> crds = CrdResources.threadlineCrds(getClass().getClassLoader());

    assertThat(crds).extracting(URL::getPath)
        .anyMatch(p -> p.endsWith("environments.threadline.dev-v1.yml"))
        .anyMatch(p -> p.endsWith("agents.threadline.dev-v1.yml"))
        .allMatch(p -> p.endsWith(".threadline.dev-v1.yml"));
  }

  @Test
  void findsThemInsideAJarToo(@TempDir Path temp) throws IOException {
    Path jar = temp.resolve("crds.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      // Directory entries, as the maven-jar-plugin writes them.
      out.putNextEntry(new JarEntry("META-INF/"));
      out.putNextEntry(new JarEntry("META-INF/fabric8/"));
      entry(out, "META-INF/fabric8/things.threadline.dev-v1.yml");
      entry(out, "META-INF/fabric8/things.threadline.dev-v1beta1.yml");
      entry(out, "META-INF/fabric8/other.example.dev-v1.yml");
    }

    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      List<URL> crds = CrdResources.threadlineCrds(loader);

      assertThat(crds).extracting(URL::toString).singleElement().asString()
          .startsWith("jar:file:").endsWith("crds.jar!/META-INF/fabric8/things.threadline.dev-v1.yml");
    }
  }

  private static void entry(JarOutputStream out, String name) throws IOException {
    out.putNextEntry(new JarEntry(name));
    OutputStream stream = out;
    stream.write("kind: CustomResourceDefinition\n".getBytes(StandardCharsets.UTF_8));
    out.closeEntry();
  }
}
