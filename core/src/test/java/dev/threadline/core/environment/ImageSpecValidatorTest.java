package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ImageSpecValidatorTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "alpine",
        "alpine:3.20",
        "docker.io/library/alpine:3.20@sha256:0123456789abcdef0123456789abcdef",
        "python:3.12-alpine",
        "node:20-alpine3.19",
        "registry.example.com:5000/team/busybox:1.36",
        "rust:1-musl"
      })
  void muslBasedImagesAreRefusedNamingTheField(String baseImage) {
    assertThat(ImageSpecValidator.validate(new ImageSpec(baseImage, null, null, null, null)))
        .singleElement()
        .satisfies(error -> {
          assertThat(error.field()).isEqualTo("baseImage");
          assertThat(error.message()).contains(baseImage, "glibc");
        });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "debian:bookworm-slim",
        "ubuntu:24.04",
        "python:3.12-slim",
        "node:20-bookworm",
        "registry.example.com/alpine-tools/debian:12",
        "ghcr.io/acme/alpinist:1.0"
      })
  void glibcImagesPass(String baseImage) {
    assertThat(ImageSpecValidator.validate(new ImageSpec(baseImage, null, null, null, null)))
        .isEmpty();
  }
}
