package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RuntimeCatalogTest {

  static Stream<Arguments> everyCatalogEntry() {
    return RuntimeCatalog.available().entrySet().stream()
        .flatMap(e -> e.getValue().stream().map(v -> Arguments.of(e.getKey(), v)));
  }

  @Test
  void availableIsExactlyTheContractTableInTheContractOrder() {
    var expected = new LinkedHashMap<String, List<String>>();
    expected.put("python", List.of("3.9", "3.10", "3.11", "3.12", "3.13"));
    expected.put("nodejs", List.of("18", "20", "22"));
    expected.put("go", List.of("1.20", "1.21", "1.22", "1.23"));
    expected.put("php", List.of("8.1", "8.2", "8.3"));
    expected.put("java", List.of("11", "17", "21"));
    expected.put("ruby", List.of("3.1", "3.2", "3.3"));
    expected.put("rust", List.of("stable", "1.75", "1.76", "1.77"));

    assertThat(RuntimeCatalog.available()).containsExactlyEntriesOf(expected);
    assertThat(RuntimeCatalog.languages()).containsExactlyElementsOf(expected.keySet());
  }

  @Test
  void availableCannotBeChangedByACaller() {
    assertThatThrownBy(() -> RuntimeCatalog.available().put("cobol", List.of("85")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> RuntimeCatalog.available().get("python").add("2.7"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyCatalogEntry")
  void acceptsEveryCatalogVersion(String language, String version) {
    assertThat(RuntimeCatalog.validate(Map.of(language, version))).isEmpty();
    assertThat(RuntimeCatalog.isSupported(language, version)).isTrue();
  }

  @Test
  void unsupportedVersionNamesTheFieldAndTheAlternatives() {
    assertThat(RuntimeCatalog.validate(Map.of("python", "3.8")))
        .containsExactly(
            new FieldError(
                "runtimes.python",
                "Unsupported python version \"3.8\"; available: 3.9, 3.10, 3.11, 3.12, 3.13"));
  }

  @Test
  void unknownLanguageNamesTheFieldAndTheLanguages() {
    assertThat(RuntimeCatalog.validate(Map.of("cobol", "85")))
        .containsExactly(
            new FieldError(
                "runtimes.cobol",
                "Unknown runtime \"cobol\"; available: python, nodejs, go, php, java, ruby, rust"));
  }

  @Test
  void versionsAndLanguagesAreExactStrings() {
    // "3.12.1" is not "3.12", "Python" is not "python": the catalog is the contract's exact table.
    assertThat(RuntimeCatalog.validate(Map.of("python", "3.12.1"))).hasSize(1);
    assertThat(RuntimeCatalog.validate(Map.of("Python", "3.12")))
        .extracting(FieldError::field)
        .containsExactly("runtimes.Python");
  }

  @Test
  void nullVersionIsReportedNotThrown() {
    var runtimes = new HashMap<String, String>();
    runtimes.put("go", null);
    assertThat(RuntimeCatalog.validate(runtimes))
        .containsExactly(
            new FieldError(
                "runtimes.go", "Unsupported go version null; available: 1.20, 1.21, 1.22, 1.23"));
  }

  @Test
  void errorsAreSortedByLanguageWhateverTheMapOrder() {
    var runtimes = new LinkedHashMap<String, String>();
    runtimes.put("rust", "1.0");
    runtimes.put("cobol", "85");
    runtimes.put("go", "1.19");
    assertThat(RuntimeCatalog.validate(runtimes))
        .extracting(FieldError::field)
        .containsExactly("runtimes.cobol", "runtimes.go", "runtimes.rust");
  }

  @Test
  void noRuntimesIsValid() {
    assertThat(RuntimeCatalog.validate(null)).isEmpty();
    assertThat(RuntimeCatalog.validate(Map.of())).isEmpty();
  }
}
