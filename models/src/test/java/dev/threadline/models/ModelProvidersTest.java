package dev.threadline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.models.anthropic.AnthropicModelProvider;
import dev.threadline.models.openai.OpenAiModelProvider;
import dev.threadline.models.scripted.ScriptedModelProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelProvidersTest {

  @Test
  void scriptedIsTheDefaultAndWorksOffline() {
    try (ModelProvider provider =
        ModelProviders.create(new ModelSettings(null, null, null, null, null))) {
      assertThat(provider).isInstanceOf(ScriptedModelProvider.class);
      assertThat(provider.name()).isEqualTo("scripted");
      assertThat(
              provider
                  .complete(ModelRequest.of("scripted", null, List.of(ChatMessage.user("hello"))))
                  .text())
          .contains("scripted model");
    }
  }

  @Test
  void buildsTheHttpProvidersWithAKey() {
    try (ModelProvider openai =
            ModelProviders.create(
                new ModelSettings("openai", null, "http://127.0.0.1:9/v1", "k", null));
        ModelProvider anthropic =
            ModelProviders.create(new ModelSettings("anthropic", null, null, "k", null))) {
      assertThat(openai).isInstanceOf(OpenAiModelProvider.class);
      assertThat(openai.name()).isEqualTo("openai");
      assertThat(anthropic).isInstanceOf(AnthropicModelProvider.class);
      assertThat(anthropic.name()).isEqualTo("anthropic");
    }
  }

  @Test
  void httpProvidersNeedAKey() {
    assertThatThrownBy(
            () -> ModelProviders.create(new ModelSettings("openai", null, null, null, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("openai")
        .hasMessageContaining("THREADLINE_MODEL_API_KEY");
    assertThatThrownBy(
            () -> ModelProviders.create(new ModelSettings("anthropic", null, null, " ", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("anthropic")
        .hasMessageContaining("THREADLINE_MODEL_API_KEY");
  }

  @Test
  void unknownProviderIsNamed() {
    assertThatThrownBy(
            () -> ModelProviders.create(new ModelSettings("gemini", "x", null, "k", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'gemini'")
        .hasMessageContaining("THREADLINE_MODEL_PROVIDER");
  }
}
