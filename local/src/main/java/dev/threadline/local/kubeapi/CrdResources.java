package dev.threadline.local.kubeapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Finds the CRD manifests the crd-generator put on the classpath ({@code META-INF/fabric8/}), in a
 * jar or a classes folder, so that new kinds are served without naming them here.
 */
final class CrdResources {
  static final String FOLDER = "META-INF/fabric8/";
  static final String THREADLINE_SUFFIX = ".threadline.dev-v1.yml";

  private CrdResources() {}

  static List<URL> threadlineCrds(ClassLoader classLoader) {
    List<URL> found = new ArrayList<>();
    try {
      Enumeration<URL> folders = classLoader.getResources(FOLDER);
      while (folders.hasMoreElements()) {
        URL folder = folders.nextElement();
        for (String name : entries(folder)) {
          if (name.endsWith(THREADLINE_SUFFIX)) {
            found.add(classLoader.getResource(FOLDER + name));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + FOLDER + " on the classpath", e);
    }
    found.sort((a, b) -> a.toString().compareTo(b.toString()));
    return List.copyOf(found);
  }

  private static List<String> entries(URL folder) throws IOException {
    List<String> names = new ArrayList<>();
    if (folder.getProtocol().equals("jar")) {
      JarURLConnection connection = (JarURLConnection) folder.openConnection();
      connection.setUseCaches(false);
      try (JarFile jar = connection.getJarFile()) {
        jar.stream()
            .map(entry -> entry.getName())
            .filter(name -> name.startsWith(FOLDER) && name.indexOf('/', FOLDER.length()) < 0)
            .map(name -> name.substring(FOLDER.length()))
            .filter(name -> !name.isEmpty())
            .forEach(names::add);
      }
    } else if (folder.getProtocol().equals("file")) {
      try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
        files.map(p -> p.getFileName().toString()).forEach(names::add);
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
    }
    return names;
  }
}
