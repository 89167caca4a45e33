package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BuildHashTest {

  final DockerfileRenderer renderer =
      new DockerfileRenderer(DockerfileRendererTest.DEFAULT_BASE, DockerfileRendererTest.RUNNER);

  BuildHash hashOf(ImageSpec spec) {
    return renderer.render(spec).buildHash();
  }

  static ImageSpec spec(Map<String, String> runtimes, List<String> python) {
    return new ImageSpec(
        null,
        runtimes,
        new Packages(List.of("curl"), python, List.of()),
        "ENV A=1",
        List.of(new SetupScript("s", "echo hi")));
  }

  @Test
  void sameSpecSameHash() {
    var spec = spec(Map.of("python", "3.12"), List.of("requests"));
    assertThat(hashOf(spec)).isEqualTo(hashOf(spec(Map.of("python", "3.12"), List.of("requests"))));
  }

  @Test
  void runtimeMapOrderDoesNotMatter() {
    var one = new LinkedHashMap<String, String>();
    one.put("python", "3.12");
    one.put("go", "1.23");
    var other = new LinkedHashMap<String, String>();
    other.put("go", "1.23");
    other.put("python", "3.12");
    assertThat(hashOf(spec(one, List.of()))).isEqualTo(hashOf(spec(other, List.of())));
  }

  @Test
  void everythingThatShapesTheImageChangesTheHash() {
    var base = spec(Map.of("python", "3.12"), List.of("requests"));
    var hashes =
        List.of(
            hashOf(base),
            hashOf(spec(Map.of("python", "3.12"), List.of("requests==2.32.3"))),
            hashOf(spec(Map.of("python", "3.13"), List.of("requests"))),
            hashOf(
                new ImageSpec(
                    "debian:bookworm",
                    base.runtimes(),
                    base.packages(),
                    base.dockerfileExtensions(),
                    base.setupScripts())),
            hashOf(
                new ImageSpec(
                    null, base.runtimes(), base.packages(), "ENV A=2", base.setupScripts())),
            hashOf(
                new ImageSpec(
                    null,
                    base.runtimes(),
                    base.packages(),
                    base.dockerfileExtensions(),
                    List.of(new SetupScript("s", "echo bye")))),
            new DockerfileRenderer(
                    DockerfileRendererTest.DEFAULT_BASE, "ghcr.io/threadline/runner:0.2.0")
                .render(base)
                .buildHash());
    assertThat(hashes).doesNotHaveDuplicates();
  }

  @Test
  void runnerImageCountsEvenForTheSameDockerfileText() {
    assertThat(BuildHash.of("FROM x\n", "runner:1"))
        .isNotEqualTo(BuildHash.of("FROM x\n", "runner:2"));
  }

  @Test
  void partsAreFramedSoTextCannotMoveBetweenThem() {
    assertThat(BuildHash.of("b", "a")).isNotEqualTo(BuildHash.of("", "ab"));
  }

  @Test
  void isSixteenLowerCaseHexDigits() {
    assertThat(BuildHash.of("FROM x\n", "runner:1").value()).matches("[0-9a-f]{16}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "xyz"})
  void rejectsValuesOfAnotherShape(String value) {
    assertThatThrownBy(() -> new BuildHash(value)).isInstanceOf(IllegalArgumentException.class);
  }
}
