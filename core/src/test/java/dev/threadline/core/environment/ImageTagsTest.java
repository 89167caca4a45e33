package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ImageTagsTest {

  static final BuildHash HASH = new BuildHash("0123456789abcdef");

  @Test
  void tagHasTheContractShape() {
    assertThat(ImageTags.forEnvironment("web", HASH)).isEqualTo("env-web:0123456789abcdef");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "My Env! | env-my-env",
        "Café Data | env-cafe-data",
        "--data__science-- | env-data-science",
        "env-7f3k | env-env-7f3k",
      })
  void freeTextNamesBecomeValidRepositoryNames(String name, String repository) {
    var tag = ImageTags.forEnvironment(name, HASH);
    assertThat(tag).isEqualTo(repository + ":" + HASH.value());
    assertThat(ImageReferences.isValid(tag)).isTrue();
  }

  @Test
  void veryLongNamesAreCut() {
    var tag = ImageTags.forEnvironment("a".repeat(300), HASH);
    assertThat(tag).hasSize("env-".length() + ImageTags.MAX_NAME_LENGTH + 1 + 16);
  }

  @ParameterizedTest
  @ValueSource(strings = {"!!!", "", "   "})
  void namesWithoutLettersOrDigitsAreRefused(String name) {
    assertThatThrownBy(() -> ImageTags.forEnvironment(name, HASH))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void referenceJoinsRegistryAndTag() {
    var tag = ImageTags.forEnvironment("web", HASH);
    assertThat(ImageTags.reference("registry.example.com:5000/team", tag))
        .isEqualTo("registry.example.com:5000/team/env-web:0123456789abcdef");
    assertThat(ImageTags.reference("registry.example.com/", tag))
        .isEqualTo("registry.example.com/env-web:0123456789abcdef");
    assertThat(ImageTags.reference(null, tag)).isEqualTo(tag);
    assertThat(ImageTags.reference(" ", tag)).isEqualTo(tag);
  }

  @Test
  void referenceRefusesSchemesAndInvalidResults() {
    var tag = ImageTags.forEnvironment("web", HASH);
    assertThatThrownBy(() -> ImageTags.reference("https://registry.example.com", tag))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without a scheme");
    assertThatThrownBy(() -> ImageTags.reference("Bad Registry", tag))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
