package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which package names an environment may declare, per kind.
 *
 * <p>Each kind has a strict allowlist: a registry package name and an optional version, nothing
 * else. Names end up as arguments of {@code apt-get}, {@code pip} and {@code npm} in the image
 * build, so anything that a shell or those tools could read as more than a name is refused: shell
 * metacharacters, whitespace and line breaks (a line break would start a new Dockerfile
 * instruction), a leading {@code -} (option injection such as {@code --index-url=...}), URLs,
 * paths, archive files, Git shorthands and PEP 508 environment markers. The renderer still quotes
 * every name ({@link ShellQuoting}).
 *
 * <ul>
 *   <li>system: Debian package names ({@code [a-z0-9][a-z0-9+.-]+}), optional {@code :arch} and
 *       {@code =version} ({@code git=1:2.39.5-0+deb12u1}).
 *   <li>python: a PEP 508 name, optional extras and version specifiers ({@code requests==2.32.3},
 *       {@code numpy>=2}, {@code uvicorn[standard]}, {@code django>=4.2,<5}); no URLs, no markers.
 *   <li>node: an npm name, optionally scoped, with an optional {@code @version}, range or dist-tag
 *       ({@code @scope/pkg@^1.2.0}, {@code typescript@latest}); no {@code user/repo} Git
 *       shorthands, tarballs or {@code file:} specs.
 * </ul>
 */
public final class PackageNames {

  /** npm's limit, and more than any Debian or PyPI name in practice. */
  public static final int MAX_LENGTH = 214;

  private static final Pattern SYSTEM =
      Pattern.compile(
          "(?<name>[a-z0-9][a-z0-9+.-]+)(?::[a-z0-9][a-z0-9-]*)?(?:=[0-9][A-Za-z0-9.+~:-]*)?");

  private static final String PY_NAME = "[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?";
  private static final String PY_CLAUSE = "(?:~=|===|==|!=|<=|>=|<|>)[A-Za-z0-9][A-Za-z0-9.*+!_-]*";
  private static final Pattern PYTHON =
      Pattern.compile(
          "(?<name>"
              + PY_NAME
              + ")"
              + "(?:\\["
              + PY_NAME
              + "(?:,"
              + PY_NAME
              + ")*\\])?"
              + "(?:"
              + PY_CLAUSE
              + "(?:,"
              + PY_CLAUSE
              + ")*)?");

  private static final Pattern NODE =
      Pattern.compile(
          "(?<name>(?:@[a-z0-9][a-z0-9._-]*/)?[A-Za-z0-9][A-Za-z0-9._-]*)"
              + "(?:@[A-Za-z0-9^~<>=.*][A-Za-z0-9^~<>=.*+_-]*)?");

  /** Characters that mean something to a shell and are never part of a name we accept. */
  private static final String SHELL_SPECIALS = ";&|$`'\"\\(){}";

  private PackageNames() {}

  /**
   * Why {@code name} is not acceptable for {@code type}, as a message that names the package, or
   * empty when it is acceptable.
   */
  public static Optional<String> check(PackageType type, String name) {
    if (name == null) {
      return Optional.of("Package name must be a string, not null");
    }
    var problem = problemWith(type, name);
    return problem.map(reason ->
        "Invalid %s package name %s: %s"
            .formatted(type.wireName(), MessageText.literal(name), reason));
  }

  public static boolean isValid(PackageType type, String name) {
    return check(type, name).isEmpty();
  }

  /**
   * Checks the names of a {@code POST .../packages} body; fields are {@code packages[i]}. Call
   * {@link #requireNonEmpty} first.
   */
  public static List<FieldError> validate(PackageType type, List<String> names) {
    return validate(type, names, "packages");
  }

  /** Checks every kind of an environment's packages; fields are {@code packages.<type>[i]}. */
  public static List<FieldError> validate(Packages packages) {
    var errors = new ArrayList<FieldError>();
    for (var type : PackageType.values()) {
      errors.addAll(validate(type, packages.of(type), "packages." + type.wireName()));
    }
    return errors;
  }

  /**
   * The contract's rule for {@code POST .../packages}.
   *
   * @throws PackageRequestException {@code packages must be a non-empty array} when null or empty
   */
  public static void requireNonEmpty(List<?> names) {
    if (names == null || names.isEmpty()) {
      throw new PackageRequestException("packages", PackageRequestException.EMPTY_PACKAGES);
    }
  }

  /**
   * The bare package name of an entry, without version, extras or architecture ({@code
   * requests==2.32.3} gives {@code requests}, {@code @types/node@20} gives {@code @types/node});
   * the entry itself when it is not a valid name; null for null.
   */
  public static String baseName(PackageType type, String entry) {
    if (entry == null) {
      return null;
    }
    var matcher = pattern(type).matcher(entry);
    return matcher.matches() ? matcher.group("name") : entry;
  }

  private static List<FieldError> validate(PackageType type, List<String> names, String field) {
    var errors = new ArrayList<FieldError>();
    for (int i = 0; i < names.size(); i++) {
      var index = i;
      check(type, names.get(i))
          .ifPresent(message -> errors.add(new FieldError(field + "[" + index + "]", message)));
    }
    return errors;
  }

  private static Optional<String> problemWith(PackageType type, String name) {
    if (name.isEmpty()) {
      return Optional.of("must not be empty");
    }
    if (name.length() > MAX_LENGTH) {
      return Optional.of("longer than " + MAX_LENGTH + " characters");
    }
    if (name.codePoints()
        .anyMatch(cp -> Character.isWhitespace(cp) || Character.isISOControl(cp))) {
      return Optional.of("must not contain whitespace, line breaks or control characters");
    }
    if (name.startsWith("-")) {
      return Optional.of("must not start with \"-\" (it would be read as a command-line option)");
    }
    for (char c : SHELL_SPECIALS.toCharArray()) {
      if (name.indexOf(c) >= 0) {
        return Optional.of("must not contain \"" + c + "\"");
      }
    }
    if (name.contains("://") || name.contains(":/")) {
      return Optional.of("must be a registry package name, not a URL");
    }
    var matcher = pattern(type).matcher(name);
    if (!matcher.matches()) {
      return Optional.of("expected a " + shapeOf(type));
    }
    if (looksLikeAFile(type, matcher.group("name"))) {
      return Optional.of("looks like a file; only packages from the registry can be installed");
    }
    return Optional.empty();
  }

  private static Pattern pattern(PackageType type) {
    return switch (type) {
      case SYSTEM -> SYSTEM;
      case PYTHON -> PYTHON;
      case NODE -> NODE;
    };
  }

  private static String shapeOf(PackageType type) {
    return switch (type) {
      case SYSTEM ->
          "Debian package name with an optional =version, e.g. curl, git=1:2.39.5-0+deb12u1";
      case PYTHON ->
          "PyPI name with optional extras and version specifiers,"
              + " e.g. requests, requests==2.32.3, numpy>=2, uvicorn[standard]";
      case NODE ->
          "npm name, optionally scoped, with an optional @version,"
              + " e.g. typescript, typescript@5.6.3, @types/node@^20";
    };
  }

  /**
   * apt, pip and npm install a local file when the argument looks like one; we only allow names.
   */
  private static boolean looksLikeAFile(PackageType type, String baseName) {
    var lower = baseName.toLowerCase(Locale.ROOT);
    return switch (type) {
      case SYSTEM -> lower.endsWith(".deb");
      case PYTHON ->
          lower.endsWith(".whl")
              || lower.endsWith(".zip")
              || lower.endsWith(".tar.gz")
              || lower.endsWith(".tgz")
              || lower.endsWith(".tar.bz2")
              || lower.endsWith(".tar");
      case NODE -> lower.endsWith(".tgz") || lower.endsWith(".tar.gz") || lower.endsWith(".tar");
    };
  }
}
