package dev.threadline.local.build;

import dev.threadline.core.environment.DockerfileValidator;
import dev.threadline.core.environment.ValidationResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What local mode runs in place of the Kaniko image: it reads Kaniko's arguments, checks the
 * Dockerfile and prints a build log that says plainly that no image is built here and what would
 * have been pushed. It exits 0 for a Dockerfile that parses, and 1 with Kaniko's own {@code error
 * parsing dockerfile} wording for one that does not, so that the operator reports the contract's
 * {@code Dockerfile syntax error} exactly as it would for a real build.
 *
 * <p>Paths: the operator's Job passes container paths ({@code --dockerfile=/workspace/Dockerfile},
 * {@code --context=dir:///workspace}) and sets the container's working directory to the context.
 * The process kubelet starts this program in that directory's host folder, so a path inside the
 * context that does not exist on the host is looked up relative to the working directory.
 */
public final class LocalImageBuild {
  static final int OK = 0;
  static final int FAILED = 1;
  private static final Pattern BUILD_HASH = Pattern.compile("build hash ([0-9a-f]{16})");

  private LocalImageBuild() {}

  /**
   * The host command that runs this program with Kaniko's arguments: what the launcher registers as
   * the local program of the builder image ({@code OperatorSettings.builderImage}).
   *
   * @param javaExecutable e.g. {@code ProcessHandle.current().info().command()} of the launcher's
   *     JVM
   * @param classpath a class path holding this module and {@code threadline-core}, e.g. the
   *     launcher's {@code java.class.path}
   * @param kanikoArgs the container's args, as the Job gives them
   */
  public static List<String> command(
      String javaExecutable, String classpath, List<String> kanikoArgs) {
    List<String> command =
        new ArrayList<>(List.of(javaExecutable, "-cp", classpath, LocalImageBuild.class.getName()));
    command.addAll(kanikoArgs);
    return command;
  }

  public static void main(String[] args) {
    System.exit(run(List.of(args), Path.of("").toAbsolutePath(), System.out));
  }

  /**
   * Runs a build check; returns the exit code. Everything goes to {@code log}, like Kaniko's
   * output.
   */
  static int run(List<String> args, Path workingDirectory, PrintStream log) {
    log.println(
        "INFO[0000] Threadline local mode: container images are not built here;"
            + " this step checks the Dockerfile only.");
    KanikoArguments arguments;
    try {
      arguments = KanikoArguments.parse(args);
    } catch (IllegalArgumentException e) {
      log.println("Error: " + e.getMessage());
      return FAILED;
    }
    if (!arguments.ignored().isEmpty()) {
      log.println(
          "INFO[0000] Ignoring flags local mode does not use: "
              + String.join(" ", arguments.ignored()));
    }
    Path dockerfile = locate(arguments, workingDirectory);
    String content;
    try {
      content = Files.readString(dockerfile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      log.println(
          "Error: error resolving dockerfile path: "
              + arguments.dockerfile()
              + " cannot be read ("
              + e.getClass().getSimpleName()
              + ")");
      return FAILED;
    }
    log.println(
        "INFO[0000] Dockerfile "
            + arguments.dockerfile()
            + ": "
            + content.lines().count()
            + " lines"
            + hashOf(content));
    ValidationResult result = DockerfileValidator.validate(content);
    if (!result.valid()) {
      log.println(
          "error building image: error parsing dockerfile: "
              + String.join("; ", result.warnings()));
      result.warnings().forEach(finding -> log.println("ERROR " + finding));
      return FAILED;
    }
    log.println(
        "INFO[0000] Dockerfile parsed without errors"
            + (result.warnings().isEmpty() ? "" : " (" + result.warnings().size() + " notes)"));
    result.warnings().forEach(finding -> log.println("INFO[0000] note: " + finding));
    describeOutcome(arguments, log);
    return OK;
  }

  private static void describeOutcome(KanikoArguments arguments, PrintStream log) {
    String cache =
        arguments.cache() && arguments.cacheRepository() != null
            ? " (layer cache in " + arguments.cacheRepository() + ")"
            : "";
    if (arguments.tarPath() != null && !arguments.destinations().isEmpty()) {
      // An image build: the operator's push step pushes the tarball.
      for (String destination : arguments.destinations()) {
        log.println(
            "INFO[0000] Would build "
                + destination
                + " into "
                + arguments.tarPath()
                + " for the push step"
                + cache);
      }
      log.println("INFO[0000] Nothing was built: no tarball was written.");
    } else if (arguments.noPush() || arguments.destinations().isEmpty()) {
      log.println(
          "INFO[0000] Test build: nothing would be pushed (--no-push)"
              + (arguments.cache() ? "" : ", and no layer cache would be used")
              + ".");
    } else {
      for (String destination : arguments.destinations()) {
        log.println("INFO[0000] Would push " + destination + cache);
      }
      log.println(LocalImagePush.NOTHING_PUSHED);
    }
    log.println("INFO[0000] Local build check done.");
  }

  /**
   * The Dockerfile on this host: the path as given when it exists, else (a container path inside
   * the context) the same path relative to the working directory.
   */
  static Path locate(KanikoArguments arguments, Path workingDirectory) {
    Path given = Path.of(arguments.dockerfile());
    if (!given.isAbsolute()) {
      Path context = Path.of(arguments.contextDirectory());
      Path inContext = context.resolve(given);
      return Files.exists(inContext) ? inContext : workingDirectory.resolve(given);
    }
    if (Files.exists(given)) {
      return given;
    }
    Path context = Path.of(arguments.contextDirectory()).normalize();
    if (given.normalize().startsWith(context)) {
      return workingDirectory.resolve(context.relativize(given.normalize()).toString());
    }
    return given;
  }

  private static String hashOf(String content) {
    Matcher matcher = BUILD_HASH.matcher(content);
    return matcher.find() ? ", build hash " + matcher.group(1) : "";
  }
}
