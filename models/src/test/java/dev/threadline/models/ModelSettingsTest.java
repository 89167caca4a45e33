package dev.threadline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelSettingsTest {

  @Test
  void toStringMasksTheKey() {
    ModelSettings settings =
        new ModelSettings("openai", "gpt-4.1-mini", null, "sk-very-secret", Duration.ofSeconds(30));

    assertThat(settings.toString())
        .doesNotContain("sk-very-secret")
        .contains("apiKey=****")
        .contains("gpt-4.1-mini");
    assertThat(ModelSettings.scripted().toString()).contains("apiKey=<none>");
  }

  @Test
  void blankProviderMeansScriptedWithDefaults() {
    ModelSettings settings = new ModelSettings(" ", "", "", "  ", null);

    assertThat(settings.provider()).isEqualTo("scripted");
    assertThat(settings.model()).isEqualTo("scripted");
    assertThat(settings.baseUrl()).isNull();
    assertThat(settings.apiKey()).isNull();
    assertThat(settings.hasApiKey()).isFalse();
    assertThat(settings.timeout()).isEqualTo(ModelSettings.DEFAULT_TIMEOUT);
  }

  @Test
  void providersGetADefaultModel() {
    assertThat(new ModelSettings("OpenAI", null, null, "k", null).model())
        .isEqualTo("gpt-4.1-mini");
    assertThat(new ModelSettings("anthropic", null, null, "k", null).model())
        .isEqualTo("claude-sonnet-4-5");
  }

  @Test
  void readsTheEnvironment() {
    ModelSettings settings =
        ModelSettings.fromEnvironment(
            Map.of(
                "THREADLINE_MODEL_PROVIDER", "openai",
                "THREADLINE_MODEL_NAME", "llama3.1",
                "THREADLINE_MODEL_BASE_URL", "http://ollama:11434/v1",
                "THREADLINE_MODEL_API_KEY", "ollama",
                "THREADLINE_MODEL_TIMEOUT_SECONDS", "45"));

    assertThat(settings)
        .isEqualTo(
            new ModelSettings(
                "openai", "llama3.1", "http://ollama:11434/v1", "ollama", Duration.ofSeconds(45)));
    assertThat(ModelSettings.fromEnvironment(Map.of())).isEqualTo(ModelSettings.scripted());
  }

  @Test
  void rejectsABadTimeout() {
    assertThatThrownBy(
            () -> ModelSettings.fromEnvironment(Map.of("THREADLINE_MODEL_TIMEOUT_SECONDS", "soon")))
        .hasMessageContaining("THREADLINE_MODEL_TIMEOUT_SECONDS");
    assertThatThrownBy(() -> new ModelSettings("openai", null, null, "k", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
