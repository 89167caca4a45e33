package dev.threadline.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts another main class of this installation as its own JVM, with this JVM's class path: how
 * the local mode runs what a cluster would run from an image.
 */
final class JavaCommand {
  /** Small and quick to start: these processes are short-lived agents and build checks. */
  private static final List<String> JVM_OPTIONS =
      List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");

  private final String javaExecutable;
  private final String classPath;

  JavaCommand(String javaExecutable, String classPath) {
    this.javaExecutable = javaExecutable;
    this.classPath = classPath;
  }

  /** The JVM and class path this process runs with. */
  static JavaCommand ofCurrentProcess() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new JavaCommand(java, System.getProperty("java.class.path"));
  }

  List<String> command(String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable);
    command.addAll(JVM_OPTIONS);
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  String javaExecutable() {
    return javaExecutable;
  }

  String classPath() {
    return classPath;
  }
}
