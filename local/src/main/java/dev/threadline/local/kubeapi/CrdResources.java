package dev.threadline.local.kubeapi;

import dev.threadline.crds.CrdManifests;
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
 * Finds the CRD manifests on the classpath ({@link CrdManifests#FOLDER}, put there by the crds
 * module), in a jar or a classes folder, so that new kinds are served without naming them here.
 */
final class CrdResources {
  private static final String FOLDER = CrdManifests.FOLDER;

  private CrdResources() {}

  static List<URL> threadlineCrds(ClassLoader classLoader) {
    List<URL> found = new ArrayList<>();
    try {
      Enumeration<URL> folders = classLoader.getResources(FOLDER);
      while (folders.hasMoreElements()) {
        URL folder = folders.nextElement();
        for (String name : entries(folder)) {
          if (name.endsWith(CrdManifests.SUFFIX)) {
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
