package dev.threadline.api.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsoleAssetsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {"/console", "/console/", "/console/index.html", "/console/js/pages/threads.js"})
  void theConsolesFilesArePublic(String path) {
    assertThat(ConsoleAssets.isAssetPath(path)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/console/../v1/threads",
        "/console/%2e%2e/v1/threads",
        "/console;a=b/index.html",
        "/console/js/..%2f..%2fv1",
        "/console/.hidden",
        "/consoles",
        "/console//index.html",
        "/v1/threads",
        "/console\\..\\v1"
      })
  void nothingElseIs(String path) {
    assertThat(ConsoleAssets.isAssetPath(path)).isFalse();
  }
}
