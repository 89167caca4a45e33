package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a user's {@code dockerfileExtensions} without building (the contract's {@code POST
 * .../dockerfile/validate}, and the operator's gate before a build).
 *
 * <p>Errors make the result invalid: an unknown instruction, a missing or malformed argument, a
 * malformed exec-form JSON array, an unclosed heredoc or a trailing line continuation. Warnings
 * keep it valid and point at instructions that parse but do not do what a user may expect inside an
 * environment image ({@code FROM}, {@code USER root}, {@code CMD}, {@code ENTRYPOINT}, {@code
 * SHELL}, {@code COPY} from the build context, {@code MAINTAINER}, legacy {@code ENV key value}).
 * Every finding reads {@code "line N: ..."}, N counted from 1 within the extensions.
 */
public final class DockerfileValidator {

  private static final Set<String> INSTRUCTIONS =
      Set.of(
          "FROM",
          "RUN",
          "CMD",
          "LABEL",
          "EXPOSE",
          "ENV",
          "ADD",
          "COPY",
          "ENTRYPOINT",
          "VOLUME",
          "USER",
          "WORKDIR",
          "ARG",
          "ONBUILD",
          "STOPSIGNAL",
          "HEALTHCHECK",
          "SHELL",
          "MAINTAINER");

  /** The flags each instruction accepts (BuildKit, Dockerfile syntax 1.x). */
  private static final Map<String, Set<String>> FLAGS =
      Map.of(
          "FROM", Set.of("platform"),
          "RUN", Set.of("mount", "network", "security"),
          "COPY", Set.of("from", "chown", "chmod", "link", "parents", "exclude"),
          "ADD", Set.of("chown", "chmod", "link", "keep-git-dir", "checksum", "exclude"),
          "HEALTHCHECK",
              Set.of("interval", "timeout", "start-period", "start-interval", "retries"));

  private static final Pattern FLAG = Pattern.compile("--([a-z][a-z-]*)(=.*)?");
  private static final Pattern ARG_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern PORT =
      Pattern.compile("(\\d{1,5})(?:-(\\d{1,5}))?(?:/(?i:tcp|udp|sctp))?");
  private static final Pattern ROOT_USER = Pattern.compile("(root|0)(:.*)?");

  private record Finding(int line, boolean error, String message) {}

  private DockerfileValidator() {}

  /** Validates {@code extensions}; null or blank extensions are valid and have no warnings. */
  public static ValidationResult validate(String extensions) {
    if (extensions == null || extensions.isBlank()) {
      return new ValidationResult(true, List.of());
    }
    var parsed = DockerfileParser.parse(extensions);
    var findings = new ArrayList<Finding>();
    parsed.problems().forEach(p -> findings.add(new Finding(p.line(), true, p.message())));
    for (var instruction : parsed.instructions()) {
      new Check(instruction, findings).run();
    }
    findings.sort(Comparator.comparingInt(Finding::line)); // stable: same-line order kept
    boolean valid = findings.stream().noneMatch(Finding::error);
    var messages = findings.stream().map(f -> "line " + f.line() + ": " + f.message()).toList();
    return new ValidationResult(valid, messages);
  }

  /** The checks of one instruction. */
  private static final class Check {
    private final DockerfileParser.Instruction instruction;
    private final String keyword;
    private final List<Finding> findings;

    Check(DockerfileParser.Instruction instruction, List<Finding> findings) {
      this.instruction = instruction;
      this.keyword = instruction.keyword().toUpperCase(Locale.ROOT);
      this.findings = findings;
    }

    void run() {
      if (!INSTRUCTIONS.contains(keyword)) {
        error(
            "unknown instruction %s (shell commands go in a RUN instruction)"
                .formatted(MessageText.literal(instruction.keyword())));
        return;
      }
      var args = instruction.arguments();
      if (args.isEmpty()) {
        error(keyword + " requires at least one argument");
        return;
      }
      var words = ShellWords.split(args);
      if (words.isEmpty()) {
        error(keyword + " has an unterminated quote");
        return;
      }
      var afterFlags = checkFlags(words.get());
      if (afterFlags.isEmpty()) {
        return;
      }
      var rest = afterFlags.get();
      switch (keyword) {
        case "FROM" -> checkFrom(rest);
        case "RUN" -> checkExecForm(rest, true).ifPresent(this::requireNonEmptyCommand);
        case "CMD", "ENTRYPOINT" -> {
          checkExecForm(rest, true);
          warning(
              keyword
                  + " has no effect: the image's entrypoint is the Threadline runner, set after"
                  + " the extensions");
        }
        case "SHELL" -> checkShell(rest);
        case "ENV", "LABEL" -> checkKeyValues(rest);
        case "ARG" -> checkArg(rest);
        case "EXPOSE" -> checkExpose(rest);
        case "USER" -> checkUser(rest);
        case "WORKDIR", "STOPSIGNAL" -> requireExactlyOne(rest);
        case "COPY", "ADD" -> checkCopy(rest);
        case "VOLUME" -> checkExecForm(rest, false);
        case "HEALTHCHECK" -> checkHealthcheck(rest);
        case "ONBUILD" -> checkOnbuild(rest);
        case "MAINTAINER" ->
            warning("MAINTAINER is deprecated; use LABEL org.opencontainers.image.authors=...");
        default -> throw new IllegalStateException("unhandled instruction " + keyword);
      }
    }

    /** Checks leading {@code --flag[=value]} words; returns the text after them, or empty. */
    private Optional<String> checkFlags(List<String> words) {
      var allowed = FLAGS.getOrDefault(keyword, Set.of());
      int i = 0;
      for (; i < words.size(); i++) {
        var matcher = FLAG.matcher(words.get(i));
        if (!matcher.matches() || allowed.isEmpty()) {
          break;
        }
        if (!allowed.contains(matcher.group(1))) {
          error("unknown flag --%s for %s".formatted(matcher.group(1), keyword));
          return Optional.empty();
        }
      }
      if (i == words.size()) {
        error(keyword + " has flags but nothing to act on");
        return Optional.empty();
      }
      // Re-find the text after the flags in the original arguments, keeping its own spacing.
      var args = instruction.arguments();
      int offset = 0;
      for (int w = 0; w < i; w++) {
        offset = args.indexOf(words.get(w), offset) + words.get(w).length();
      }
      return Optional.of(args.substring(offset).strip());
    }

    private void checkFrom(String rest) {
      var words = ShellWords.split(rest).orElse(List.of());
      boolean shaped =
          words.size() == 1 || (words.size() == 3 && words.get(1).equalsIgnoreCase("AS"));
      if (!shaped) {
        error("FROM takes an image and an optional AS name");
        return;
      }
      warning(
          "FROM starts a new build stage: everything before it (base image, runtimes, packages)"
              + " is left out of the final image");
    }

    /**
     * Parses the exec form when the arguments start with {@code [}; returns its strings, or empty
     * for the shell form or a malformed array (an error: Docker would quietly run the text as a
     * shell command instead).
     */
    private Optional<List<String>> checkExecForm(String rest, boolean isCommand) {
      if (!rest.startsWith("[")) {
        return Optional.empty();
      }
      var parsed = JsonStringArray.parse(rest);
      if (parsed.isEmpty()) {
        error(
            keyword
                + " has a malformed JSON array: use double quotes and commas, e.g. [\"executable\","
                + " \"arg\"]"
                + (isCommand ? " (otherwise it runs as a shell command)" : ""));
      }
      return parsed;
    }

    private void requireNonEmptyCommand(List<String> exec) {
      if (exec.isEmpty()) {
        error(keyword + " needs a command: the JSON array is empty");
      }
    }

    private void checkShell(String rest) {
      if (!rest.startsWith("[")) {
        error("SHELL must be a JSON array, e.g. SHELL [\"/bin/bash\", \"-c\"]");
        return;
      }
      var exec = checkExecForm(rest, false);
      if (exec.isPresent() && exec.get().isEmpty()) {
        error("SHELL needs at least the shell executable");
      } else if (exec.isPresent()) {
        warning(
            "SHELL also applies to the setup scripts and runner steps after the extensions, which"
                + " expect a POSIX shell");
      }
    }

    private void checkKeyValues(String rest) {
      var words = ShellWords.split(rest).orElse(List.of());
      if (!words.get(0).contains("=")) {
        if (words.size() < 2) {
          error(
              "%1$s %2$s needs a value: %1$s %2$s=value"
                  .formatted(keyword, MessageText.literal(words.get(0))));
        } else {
          warning(
              "legacy form \"%s key value\" is deprecated; use %s key=value"
                  .formatted(keyword, keyword));
        }
        return;
      }
      for (var word : words) {
        int eq = word.indexOf('=');
        if (eq <= 0) {
          error("%s expects key=value pairs, got %s".formatted(keyword, MessageText.literal(word)));
          return;
        }
      }
    }

    private void checkArg(String rest) {
      for (var word : ShellWords.split(rest).orElse(List.of())) {
        var name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
        if (!ARG_NAME.matcher(name).matches()) {
          error("ARG has an invalid name " + MessageText.literal(name));
          return;
        }
      }
    }

    private void checkExpose(String rest) {
      for (var word : ShellWords.split(rest).orElse(List.of())) {
        if (word.contains("$")) {
          continue; // a variable: known only at build time
        }
        var matcher = PORT.matcher(word);
        boolean valid =
            matcher.matches()
                && isPort(matcher.group(1))
                && (matcher.group(2) == null || isPort(matcher.group(2)));
        if (!valid) {
          error("EXPOSE expects port[/tcp|/udp] (1-65535), got " + MessageText.literal(word));
          return;
        }
      }
    }

    private static boolean isPort(String digits) {
      int port = Integer.parseInt(digits);
      return port >= 1 && port <= 65535;
    }

    private void checkUser(String rest) {
      if (!requireExactlyOne(rest)) {
        return;
      }
      if (ROOT_USER.matcher(rest).matches()) {
        warning(
            "USER root applies to the extensions only: the runner section resets the user, and"
                + " the agent runs as uid "
                + DockerfileRenderer.RUNNER_UID);
      }
    }

    private boolean requireExactlyOne(String rest) {
      var words = ShellWords.split(rest).orElse(List.of());
      if (words.size() != 1) {
        error(keyword + " takes exactly one argument, got " + words.size());
        return false;
      }
      return true;
    }

    private void checkCopy(String rest) {
      var words = ShellWords.split(rest).orElse(List.of());
      int count = words.size();
      if (rest.startsWith("[")) {
        var exec = checkExecForm(rest, false);
        if (exec.isEmpty()) {
          return;
        }
        count = exec.get().size();
      }
      boolean heredoc = rest.contains("<<");
      if (count < 2) {
        error(keyword + " needs at least a source and a destination");
        return;
      }
      boolean fromImage = instruction.arguments().contains("--from=");
      boolean onlyUrls =
          keyword.equals("ADD")
              && words.subList(0, words.size() - 1).stream()
                  .allMatch(w -> w.matches("(?i)(https?|git)://.*|git@.*"));
      if (!fromImage && !heredoc && !onlyUrls) {
        warning(
            keyword
                + " from the build context will fail: the context holds only the generated"
                + " Dockerfile; use a URL (ADD), COPY --from=<image>, a heredoc or a setup script");
      }
    }

    private void checkHealthcheck(String rest) {
      var words = ShellWords.split(rest).orElse(List.of());
      boolean none = words.size() == 1 && words.get(0).equalsIgnoreCase("NONE");
      boolean cmd = words.size() >= 2 && words.get(0).equalsIgnoreCase("CMD");
      if (!none && !cmd) {
        error("HEALTHCHECK takes NONE or CMD <command>");
      }
    }

    private void checkOnbuild(String rest) {
      var trigger = rest.split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
      if (!INSTRUCTIONS.contains(trigger)) {
        error("ONBUILD has an unknown instruction " + MessageText.literal(trigger));
      } else if (Set.of("ONBUILD", "FROM", "MAINTAINER").contains(trigger)) {
        error("ONBUILD cannot trigger " + trigger);
      } else {
        warning("ONBUILD runs only in images built FROM this one, not in this build");
      }
    }

    private void error(String message) {
      findings.add(new Finding(instruction.line(), true, message));
    }

    private void warning(String message) {
      findings.add(new Finding(instruction.line(), false, message));
    }
  }
}
