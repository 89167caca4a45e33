package dev.threadline.runner.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The JDK modules that the classes in some jars refer to, read from their constant pools: every
 * class name, and every type named in a descriptor or generic signature. That is what {@code jdeps
 * --print-module-deps} looks at too, but here for every class of every jar (all multi-release
 * versions included): jdeps follows only what the root jar reaches statically, so it misses
 * providers found through ServiceLoader (logback, for one), and it takes half a minute on the
 * runner's 150 MB of jars where this takes a few seconds.
 */
final class JdkModuleReferences {
  private static final int CLASS_MAGIC = 0xCAFEBABE;

  /**
   * JDK package (internal form, {@code java/net/http}) to its module, for every module of this JDK.
   */
  private final Map<String, String> moduleOfPackage = new HashMap<>();

  JdkModuleReferences() {
    for (ModuleReference module : ModuleFinder.ofSystem().findAll()) {
      for (String name : module.descriptor().packages()) {
        moduleOfPackage.put(name.replace('.', '/'), module.descriptor().name());
      }
    }
  }

  /**
   * Each JDK module referred to, with one class that refers to it ({@code jar!class}) to say why.
   */
  Map<String, String> of(List<Path> jars) throws Exception {
    Map<String, String> referrers = new ConcurrentHashMap<>();
    // Largest first, one jar per task: two model SDK jars hold over half of the runner's classes.
    List<Callable<Void>> tasks =
        jars.stream()
            .sorted(Comparator.comparingLong(JdkModuleReferences::size).reversed())
            .<Callable<Void>>map(jar ->
                () -> {
                  read(jar, referrers);
                  return null;
                })
            .toList();
    try (ExecutorService threads =
        Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors())) {
      for (Future<Void> done : threads.invokeAll(tasks)) {
        done.get();
      }
    }
    return new TreeMap<>(referrers);
  }

  private void read(Path jar, Map<String, String> referrers) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      for (ZipEntry entry : Collections.list(zip.entries())) {
        if (entry.getName().endsWith(".class") && !entry.getName().endsWith("module-info.class")) {
          String referrer = jar.getFileName() + "!" + entry.getName();
          try (InputStream in = zip.getInputStream(entry)) {
            readConstantPool(
                ByteBuffer.wrap(in.readAllBytes()),
                module -> referrers.putIfAbsent(module, referrer));
          }
        }
      }
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private interface ModuleSink {
    void accept(String module);
  }

  /** Walks the constant pool (JVMS 4.4); only its UTF-8 entries can name a type. */
  private void readConstantPool(ByteBuffer in, ModuleSink modules) throws IOException {
    if (in.getInt() != CLASS_MAGIC) {
      return;
    }
    skip(in, 4); // minor and major version
    int count = Short.toUnsignedInt(in.getShort());
    for (int index = 1; index < count; index++) {
      int tag = Byte.toUnsignedInt(in.get());
      switch (tag) {
        case 1 -> {
          int length = Short.toUnsignedInt(in.getShort());
          if (containsSlash(in.array(), in.position(), length)) {
            typesIn(
                new String(in.array(), in.position(), length, StandardCharsets.ISO_8859_1),
                modules);
          }
          skip(in, length);
        }
        case 7, 8, 16, 19, 20 -> skip(in, 2); // Class, String, MethodType, Module, Package
        case 15 -> skip(in, 3); // MethodHandle
        case 3, 4, 9, 10, 11, 12, 17, 18 ->
            skip(in, 4); // Integer, Float, member refs, NameAndType, (Invoke)Dynamic
        case 5, 6 -> { // Long and Double take two slots
          skip(in, 8);
          index++;
        }
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
  }

  private static void skip(ByteBuffer in, int bytes) {
    in.position(in.position() + bytes);
  }

  private static boolean containsSlash(byte[] bytes, int start, int length) {
    for (int i = start; i < start + length; i++) {
      if (bytes[i] == '/') {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code java/sql/Date}, {@code [Ljava/sql/Date;} or {@code (Ljava/sql/Date;)V}: each type's
   * module.
   */
  private void typesIn(String text, ModuleSink modules) {
    if (text.indexOf(';') < 0) {
      addModuleOf(text, modules);
      return;
    }
    // Every L...; (or L...< in a generic signature); a false start (an L inside a name) matches no
    // JDK package.
    for (int start = text.indexOf('L'); start >= 0; start = text.indexOf('L', start + 1)) {
      int end = start + 1;
      while (end < text.length() && text.charAt(end) != ';' && text.charAt(end) != '<') {
        end++;
      }
      addModuleOf(text.substring(start + 1, end), modules);
    }
  }

  private void addModuleOf(String internalName, ModuleSink modules) {
    int slash = internalName.lastIndexOf('/');
    if (slash > 0) {
      String module = moduleOfPackage.get(internalName.substring(0, slash));
      if (module != null) {
        modules.accept(module);
      }
    }
  }
}
