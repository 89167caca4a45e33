package dev.threadline.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class BearerTokensTest {
  @Test
  void readsTheTokenWhateverTheSchemesCase() {
    assertThat(BearerTokens.parse("Bearer tl_abc")).contains("tl_abc");
    assertThat(BearerTokens.parse("bearer   tl_abc ")).contains("tl_abc");
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(
      strings = {
        "",
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        "Bearertl_abc",
        "Bearer a b",
        "Token tl_abc"
      })
  void refusesAnythingElse(String header) {
    assertThat(BearerTokens.parse(header)).isEmpty();
  }

  @Test
  void refusesOverlongTokens() {
    assertThat(BearerTokens.parse("Bearer " + "a".repeat(BearerTokens.MAX_TOKEN_LENGTH)))
        .isPresent();
    assertThat(BearerTokens.parse("Bearer " + "a".repeat(BearerTokens.MAX_TOKEN_LENGTH + 1)))
        .isEmpty();
  }
}
