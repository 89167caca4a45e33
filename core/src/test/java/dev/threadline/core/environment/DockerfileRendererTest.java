package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DockerfileRendererTest {

  static final String DEFAULT_BASE = "ghcr.io/threadline/base:0.1.0";
  static final String RUNNER = "ghcr.io/threadline/runner:0.1.0";

  final DockerfileRenderer renderer = new DockerfileRenderer(DEFAULT_BASE, RUNNER);

  static ImageSpec fullSpec() {
    var runtimes = new LinkedHashMap<String, String>();
    runtimes.put("python", "3.12");
    runtimes.put("nodejs", "22");
    return new ImageSpec(
        null,
        runtimes,
        new Packages(
            List.of("curl", "git"),
            List.of("requests==2.32.3", "numpy>=2"),
            List.of("typescript@5.6.3")),
        "RUN echo extension-marker \\\n  && true\nENV EXT=1",
        List.of(new SetupScript("prepare", "echo setup-marker\n")));
  }

  static Stream<Arguments> everyCatalogEntry() {
    return RuntimeCatalogTest.everyCatalogEntry();
  }

  @Test
  void defaultBaseImageWhenTheSpecNamesNone() {
    var content = renderer.render(ImageSpec.empty()).content();
    assertThat(content).startsWith("FROM " + DEFAULT_BASE + "\n");
  }

  @Test
  void customBaseImageReplacesTheDefault() {
    var spec = new ImageSpec("python:3.12-slim-bookworm", null, null, null, null);
    var content = renderer.render(spec).content();
    assertThat(content).startsWith("FROM python:3.12-slim-bookworm\n").doesNotContain(DEFAULT_BASE);
  }

  @Test
  void headerAfterFromNamesTheBuildHash() {
    var rendered = renderer.render(fullSpec());
    var lines = rendered.content().lines().toList();
    assertThat(lines.get(1))
        .isEqualTo("# Threadline environment image, build hash " + rendered.buildHash().value());
    assertThat(lines.get(5)).isEqualTo("USER root");
  }

  @Test
  void sectionsComeInTheContractOrder() {
    var content = renderer.render(fullSpec()).content();
    assertThat(
            positions(
                content,
                "FROM ",
                "USER root",
                "# Runtime: python 3.12",
                "# Runtime: nodejs 22",
                "# System packages",
                "# Python packages",
                "# Node packages",
                "RUN echo extension-marker",
                "# Setup script 1",
                "COPY --from=" + RUNNER,
                "USER 10001",
                "ENTRYPOINT"))
        .isSorted();
  }

  @Test
  void runnerSectionEndsTheFileAsTheAgentPodNeedsIt() {
    var content = renderer.render(fullSpec()).content();
    assertThat(content)
        .contains("COPY --from=" + RUNNER + " /opt/threadline /opt/threadline\n")
        .contains("useradd --uid 10001 --gid 10001")
        .contains("WORKDIR /workspace\n")
        .contains("ENV THREADLINE_RUNNER_HOME=/opt/threadline\n");
    assertThat(content).endsWith("USER 10001\nENTRYPOINT [\"/opt/threadline/bin/runner\"]\n");
  }

  @Test
  void runtimesRenderInCatalogOrderWhateverTheMapOrder() {
    var reversed = new LinkedHashMap<String, String>();
    reversed.put("rust", "stable");
    reversed.put("go", "1.23");
    reversed.put("python", "3.11");
    var content = renderer.render(new ImageSpec(null, reversed, null, null, null)).content();
    assertThat(positions(content, "# Runtime: python", "# Runtime: go", "# Runtime: rust"))
        .isSorted();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyCatalogEntry")
  void everyRuntimeVersionRendersItsPinnedRelease(String language, String version) {
    var content =
        renderer.render(new ImageSpec(null, Map.of(language, version), null, null, null)).content();
    var pinned = RuntimeInstallers.pinnedRelease(language, version);
    assertThat(content)
        .contains("# Tools the runtime installers need.")
        .containsPattern("(?m)^# Runtime: " + Pattern.quote(language + " " + version) + " \\(")
        .containsPattern("# Sources?: https://");
    assertThat(content.lines().filter(line -> !line.startsWith("#")))
        .anySatisfy(line ->
            assertThat(line).containsPattern("(?<![0-9.])" + Pattern.quote(pinned) + "(?![0-9])"));
  }

  @Test
  void everyCatalogVersionHasAPinnedRelease() {
    RuntimeCatalog.available()
        .forEach((language, versions) -> {
          assertThat(RuntimeInstallers.PINNED.get(language).keySet())
              .as(language)
              .containsExactlyInAnyOrderElementsOf(versions);
        });
    assertThat(RuntimeInstallers.PINNED.keySet())
        .containsExactlyInAnyOrderElementsOf(RuntimeCatalog.languages());
  }

  @Test
  void noRuntimesMeansNoInstallerPrerequisites() {
    assertThat(renderer.render(ImageSpec.empty()).content())
        .doesNotContain("# Tools the runtime installers need.")
        .doesNotContain("# Runtime:")
        .doesNotContain("apt-get install");
  }

  @Test
  void everyPackageNameIsQuotedOnItsOwnLine() {
    var content = renderer.render(fullSpec()).content();
    assertThat(content)
        .contains(
            "RUN apt-get update \\\n && apt-get install -y --no-install-recommends \\\n"
                + "      'curl' \\\n      'git' \\\n && rm -rf /var/lib/apt/lists/*\n")
        .contains(
            "python3 -m pip install --no-cache-dir \\\n"
                + "      'requests==2.32.3' \\\n      'numpy>=2'\n")
        .contains(
            "RUN npm install -g --no-fund --no-audit \\\n"
                + "      'typescript@5.6.3' \\\n && npm cache clean --force\n");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"git; rm -rf /", "$(curl evil)", "--index-url=http://evil", "a\nRUN evil", "`id`"})
  void hostilePackageNamesAreRefusedBeforeRendering(String hostile) {
    var spec =
        new ImageSpec(
            null, null, new Packages(List.of("curl"), List.of(hostile), List.of()), null, null);
    assertThatThrownBy(() -> renderer.render(spec))
        .isInstanceOf(InvalidImageSpecException.class)
        .satisfies(e ->
            assertThat(((InvalidImageSpecException) e).errors())
                .extracting(FieldError::field)
                .containsExactly("packages.python[0]"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"debian\nRUN evil", "debian AS builder", "Debian:12", "", "a b"})
  void hostileOrMalformedBaseImagesAreRefused(String baseImage) {
    var spec = new ImageSpec(baseImage, null, null, null, null);
    assertThatThrownBy(() -> renderer.render(spec))
        .isInstanceOf(InvalidImageSpecException.class)
        .satisfies(e ->
            assertThat(((InvalidImageSpecException) e).errors())
                .extracting(FieldError::field)
                .containsExactly("baseImage"));
  }

  @Test
  void unknownRuntimesAreRefusedWithTheirField() {
    var spec = new ImageSpec(null, Map.of("python", "2.7"), null, null, null);
    assertThatThrownBy(() -> renderer.render(spec))
        .isInstanceOf(InvalidImageSpecException.class)
        .hasMessageStartingWith("runtimes.python: Unsupported python version \"2.7\"");
  }

  @Test
  void sameSpecRendersTheSameBytes() {
    assertThat(renderer.render(fullSpec())).isEqualTo(renderer.render(fullSpec()));
  }

  @Test
  void extensionsAreVerbatimWithLineEndingsNormalised() {
    var spec = new ImageSpec(null, null, null, "RUN echo a\r\nENV B=2\r\n\r\n", null);
    var content = renderer.render(spec).content();
    assertThat(content)
        .contains("# dockerfileExtensions (verbatim)\nRUN echo a\nENV B=2\n")
        .doesNotContain("\r");
    assertThat(positions(content, "ENV B=2", "USER root\n\n# Threadline runner")).isSorted();
  }

  @Test
  void setupScriptsRunInOrderAndDecodeBackToTheirText() {
    var first = "#!/bin/sh\necho one\n";
    var hostile = "echo ' \"$(id)\" `id` \\\nEOF\nRUN touch /pwned\n# end\n" + "x".repeat(500);
    var spec =
        new ImageSpec(
            null,
            null,
            null,
            null,
            List.of(new SetupScript("First one", first), new SetupScript("a\nRUN evil", hostile)));
    var content = renderer.render(spec).content();

    var scripts = embeddedScripts(content);
    assertThat(scripts).containsExactly(first, hostile);
    assertThat(content)
        .contains(
            "/tmp/threadline-setup/01-first-one.sh \\\n && /tmp/threadline-setup/01-first-one.sh")
        .contains("&& bash -e /tmp/threadline-setup/02-a-run-evil.sh")
        .contains("# Setup script 2: \"a\\nRUN evil\"\n")
        .doesNotContainPattern("(?m)^RUN touch|^RUN evil");
  }

  @Test
  void theEffectiveDockerfileParsesWithoutErrors() {
    var runtimes = new LinkedHashMap<String, String>();
    RuntimeCatalog.available()
        .forEach((language, versions) -> runtimes.put(language, versions.get(0)));
    var spec =
        new ImageSpec(
            null,
            runtimes,
            fullSpec().packages(),
            fullSpec().dockerfileExtensions(),
            List.of(new SetupScript("long", "echo hi\n".repeat(200))));
    var result = DockerfileValidator.validate(renderer.render(spec).content());
    assertThat(result.valid()).as(String.join("\n", result.warnings())).isTrue();
    // FROM and ENTRYPOINT warn because the validator is written for extensions; nothing else does.
    assertThat(result.warnings())
        .allSatisfy(w ->
            assertThat(w)
                .containsAnyOf("FROM starts", "ENTRYPOINT has no effect", "USER root applies"));
  }

  /** Each RUN step, joined as the builder joins it, is valid POSIX shell syntax ({@code sh -n}). */
  @Test
  void everyRunStepIsValidShell() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh");
    var runtimes = new LinkedHashMap<String, String>();
    RuntimeCatalog.available()
        .forEach((language, versions) -> runtimes.put(language, versions.get(0)));
    var spec =
        new ImageSpec(
            null,
            runtimes,
            fullSpec().packages(),
            null,
            List.of(new SetupScript("s", "echo 'hi'\n")));
    var runSteps =
        renderer
            .render(spec)
            .content()
            .replace("\\\n", "")
            .lines()
            .filter(line -> line.startsWith("RUN "))
            .map(line -> line.substring("RUN ".length()))
            .toList();
    assertThat(runSteps).hasSizeGreaterThan(RuntimeCatalog.languages().size());
    for (var step : runSteps) {
      var process =
          new ProcessBuilder("/bin/sh", "-n", "-c", step).redirectErrorStream(true).start();
      var out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor()).as(step + "\n" + out).isZero();
    }
  }

  @Test
  void constructorRefusesInvalidImageReferences() {
    assertThatThrownBy(() -> new DockerfileRenderer("bad image", RUNNER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("default base image");
    assertThatThrownBy(() -> new DockerfileRenderer(DEFAULT_BASE, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("runner image");
  }

  /** Index of each marker in {@code content}, asserting that each is present. */
  static List<Integer> positions(String content, String... markers) {
    var positions = new ArrayList<Integer>();
    for (var marker : markers) {
      int at = content.indexOf(marker);
      assertThat(at).as("position of %s", marker).isNotNegative();
      positions.add(at);
    }
    return positions;
  }

  /** What the builder would decode: continuation lines joined, then each base64 word decoded. */
  static List<String> embeddedScripts(String content) {
    var joined = content.replace("\\\n", "");
    var matcher = Pattern.compile("printf '%s' '([A-Za-z0-9+/=]*)' \\| base64 -d").matcher(joined);
    var scripts = new ArrayList<String>();
    while (matcher.find()) {
      scripts.add(new String(Base64.getDecoder().decode(matcher.group(1)), StandardCharsets.UTF_8));
    }
    return scripts;
  }
}
