package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class PackageNamesTest {

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SYSTEM | curl",
        "SYSTEM | build-essential",
        "SYSTEM | libstdc++6",
        "SYSTEM | python3.11",
        "SYSTEM | git=1:2.39.5-0+deb12u1",
        "SYSTEM | libc6:amd64",
        "SYSTEM | ca-certificates=20230311",
        "PYTHON | requests",
        "PYTHON | requests==2.32.3",
        "PYTHON | numpy>=2",
        "PYTHON | uvicorn[standard]",
        "PYTHON | uvicorn[standard,extra]==0.30.6",
        "PYTHON | django>=4.2,<5",
        "PYTHON | Flask_SQLAlchemy~=3.1",
        "PYTHON | zope.interface!=6.0",
        "PYTHON | torch==2.4.1+cpu",
        "PYTHON | pytest==8.*",
        "NODE | typescript",
        "NODE | typescript@5.6.3",
        "NODE | @types/node",
        "NODE | @types/node@^20",
        "NODE | @angular/cli@~18.2.0",
        "NODE | pnpm@latest",
        "NODE | lodash.merge",
        "NODE | JSONStream",
        "NODE | prettier@>=3",
      })
  void acceptsRealPackageNames(PackageType type, String name) {
    assertThat(PackageNames.check(type, name)).isEmpty();
  }

  static Stream<Arguments> hostileNamesForEveryType() {
    var hostile =
        List.of(
            "git; rm -rf /",
            "$(curl evil)",
            "${HOME}",
            "--index-url=http://evil",
            "-e",
            "a\nRUN evil",
            "a\rb",
            "`id`",
            "a|b",
            "a&&b",
            "a>b c",
            "'quoted'",
            "\"quoted\"",
            "x y",
            "tab\there",
            "back\\slash",
            "(sub)",
            "../etc",
            "./local",
            "/abs/path",
            "http://evil.example/pkg.tgz",
            "git+https://evil.example/repo.git",
            "file:../x",
            "");
    return Arrays.stream(PackageType.values())
        .flatMap(type -> hostile.stream().map(name -> Arguments.of(type, name)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("hostileNamesForEveryType")
  void rejectsHostileNamesForEveryType(PackageType type, String name) {
    assertThat(PackageNames.check(type, name)).isPresent();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SYSTEM | ./pkg.deb",
        "SYSTEM | pkg.deb",
        "SYSTEM | Curl",
        "SYSTEM | c",
        "PYTHON | pkg.whl",
        "PYTHON | pkg-1.0.tar.gz",
        "PYTHON | requests @ https://evil",
        "PYTHON | requests;python_version<'3.8'",
        "PYTHON | requests=2",
        "PYTHON | .hidden",
        "NODE | user/repo",
        "NODE | github:user/repo",
        "NODE | pkg.tgz",
        "NODE | @scope",
        "NODE | .bin",
        "NODE | _private",
      })
  void rejectsFilesUrlsAndShorthandsThatAreNotRegistryNames(PackageType type, String name) {
    assertThat(PackageNames.check(type, name)).isPresent();
  }

  @Test
  void messageNamesThePackageTheTypeAndTheReason() {
    assertThat(PackageNames.check(PackageType.SYSTEM, "git; rm -rf /"))
        .hasValue(
            "Invalid system package name \"git; rm -rf /\": must not contain whitespace,"
                + " line breaks or control characters");
    assertThat(PackageNames.check(PackageType.PYTHON, "--index-url=http://evil"))
        .hasValue(
            "Invalid python package name \"--index-url=http://evil\": must not start with"
                + " \"-\" (it would be read as a command-line option)");
    assertThat(PackageNames.check(PackageType.NODE, "$(curl evil)").orElseThrow())
        .startsWith("Invalid node package name \"$(curl evil)\":");
  }

  @Test
  void messageShowsALineBreakEscapedSoItCannotForgeALogLine() {
    var message = PackageNames.check(PackageType.PYTHON, "a\nRUN evil").orElseThrow();
    assertThat(message).contains("\"a\\nRUN evil\"").doesNotContain("\n");
  }

  @Test
  void messageEscapesInvisibleAndSeparatorCharacters() {
    var message = PackageNames.check(PackageType.NODE, "a\u2028b\u200bc").orElseThrow();
    assertThat(message).contains("\"a\\u2028b\\u200bc\"");
  }

  @Test
  void nullAndOverlongNamesAreRejected() {
    assertThat(PackageNames.check(PackageType.NODE, null))
        .hasValue("Package name must be a string, not null");
    assertThat(PackageNames.check(PackageType.NODE, "a".repeat(PackageNames.MAX_LENGTH + 1)))
        .isPresent();
    assertThat(PackageNames.check(PackageType.NODE, "a".repeat(PackageNames.MAX_LENGTH))).isEmpty();
  }

  @Test
  void validateOfARequestBodyNamesEachBadIndex() {
    assertThat(
            PackageNames.validate(PackageType.PYTHON, List.of("requests", "x;y", "numpy", "`id`")))
        .extracting(FieldError::field)
        .containsExactly("packages[1]", "packages[3]");
  }

  @Test
  void validateOfAnEnvironmentNamesTypeAndIndex() {
    var packages =
        new Packages(List.of("curl"), List.of("ok", "bad name"), Arrays.asList("ok", null));
    assertThat(PackageNames.validate(packages))
        .extracting(FieldError::field)
        .containsExactly("packages.python[1]", "packages.node[1]");
  }

  @Test
  void emptyPackagesGiveTheContractMessage() {
    assertThatThrownBy(() -> PackageNames.requireNonEmpty(List.of()))
        .isInstanceOf(PackageRequestException.class)
        .hasMessage("packages must be a non-empty array")
        .extracting(e -> ((PackageRequestException) e).field())
        .isEqualTo("packages");
    assertThatThrownBy(() -> PackageNames.requireNonEmpty(null))
        .hasMessage("packages must be a non-empty array");
  }

  @Test
  void packageTypeParsesTheWireNamesOnly() {
    assertThat(PackageType.parse("system")).isEqualTo(PackageType.SYSTEM);
    assertThat(PackageType.parse("python")).isEqualTo(PackageType.PYTHON);
    assertThat(PackageType.parse("node")).isEqualTo(PackageType.NODE);
    for (var bad : Arrays.asList("npm", "System", "pip", "", null)) {
      assertThatThrownBy(() -> PackageType.parse(bad))
          .isInstanceOf(PackageRequestException.class)
          .hasMessage("Invalid package type");
    }
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SYSTEM | git=1:2.39.5-0+deb12u1 | git",
        "SYSTEM | libc6:amd64 | libc6",
        "PYTHON | requests==2.32.3 | requests",
        "PYTHON | uvicorn[standard]>=0.30 | uvicorn",
        "NODE | @types/node@^20 | @types/node",
        "NODE | typescript | typescript",
      })
  void baseNameDropsVersionExtrasAndArchitecture(PackageType type, String entry, String base) {
    assertThat(PackageNames.baseName(type, entry)).isEqualTo(base);
  }

  @Test
  void addingIsIdempotentAndRemovingMatchesTheBaseName() {
    var packages =
        Packages.empty()
            .withAdded(PackageType.PYTHON, List.of("requests==2.32.3", "numpy"))
            .withAdded(PackageType.PYTHON, List.of("numpy", "pandas"));
    assertThat(packages.python()).containsExactly("requests==2.32.3", "numpy", "pandas");

    var removed = packages.without(PackageType.PYTHON, "requests");
    assertThat(removed.python()).containsExactly("numpy", "pandas");
    assertThat(removed.system()).isEmpty();
    assertThat(removed.without(PackageType.PYTHON, "absent")).isEqualTo(removed);
  }
}
