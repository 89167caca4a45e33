package dev.threadline.crds;

import dev.threadline.crds.common.ThreadlineGroup;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The custom resource classes of this module by CRD name ({@code agents.threadline.dev}), found the
 * way the crd-generator finds them: by scanning the compiled classes, so a new kind needs no list.
 */
final class CustomResourceClasses {
  private static final String CLASS_SUFFIX = ".class";
  private static final Map<String, Class<?>> BY_CRD_NAME = scan();

  private CustomResourceClasses() {}

  /** The class whose CRD is named {@code crdName}; fails when none is. */
  static Class<?> forCrd(String crdName) {
    Class<?> resourceClass = BY_CRD_NAME.get(crdName);
    if (resourceClass == null) {
      throw new IllegalStateException(
          "no custom resource class for the CRD "
              + crdName
              + "; the classes found are for "
              + BY_CRD_NAME.keySet());
    }
    return resourceClass;
  }

  private static Map<String, Class<?>> scan() {
    Path classes = classesDirectory();
    try (Stream<Path> files = Files.walk(classes)) {
      return files
          .map(classes::relativize)
          .map(Path::toString)
          .filter(f -> f.endsWith(CLASS_SUFFIX))
          .map(CustomResourceClasses::load)
          .filter(CustomResourceClasses::isCustomResource)
          .collect(Collectors.toMap(CustomResource::getCRDName, Function.identity()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path classesDirectory() {
    try {
      return Path.of(
          ThreadlineGroup.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Class<?> load(String classFile) {
    String name =
        classFile
            .substring(0, classFile.length() - CLASS_SUFFIX.length())
            .replace(File.separatorChar, '.');
    try {
      return Class.forName(name, false, CustomResourceClasses.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean isCustomResource(Class<?> type) {
    return CustomResource.class.isAssignableFrom(type) && !Modifier.isAbstract(type.getModifiers());
  }
}
