package dev.threadline.core.environment;

import java.util.Map;

/**
 * One Dockerfile section per runtime: how each language of {@link RuntimeCatalog} is installed on a
 * Debian (bookworm) or Ubuntu base, from that language's own official source.
 *
 * <p>Where the source has stable per-release URLs (Node.js, Go, Ruby, the uv and rustup installers,
 * Rust toolchains) the exact release is pinned below, so the same spec renders the same Dockerfile
 * and builds the same runtime; bump a pin deliberately, which changes every affected build hash.
 * Where the source is an apt repository (PHP from packages.sury.org, Java from Eclipse Temurin's
 * repository), the newest patch of the requested line is installed at build time, and {@code rust
 * stable} follows the stable channel. Downloads with a published checksum file are verified against
 * it.
 *
 * <p>The builder (Kaniko) must be able to reach each source named in a section's comment, plus the
 * base image's Debian mirrors.
 */
final class RuntimeInstallers {

  static final String UV_VERSION = "0.8.0";
  static final String RUSTUP_VERSION = "1.27.1";

  /**
   * Contract version to the exact release installed; a test keeps this in step with the catalog.
   */
  static final Map<String, Map<String, String>> PINNED =
      Map.of(
          "python",
              Map.of("3.9", "3.9", "3.10", "3.10", "3.11", "3.11", "3.12", "3.12", "3.13", "3.13"),
          "nodejs", Map.of("18", "18.20.8", "20", "20.18.1", "22", "22.12.0"),
          "go", Map.of("1.20", "1.20.14", "1.21", "1.21.13", "1.22", "1.22.12", "1.23", "1.23.4"),
          "php", Map.of("8.1", "8.1", "8.2", "8.2", "8.3", "8.3"),
          "java", Map.of("11", "11", "17", "17", "21", "21"),
          "ruby", Map.of("3.1", "3.1.6", "3.2", "3.2.6", "3.3", "3.3.6"),
          "rust", Map.of("stable", "stable", "1.75", "1.75.0", "1.76", "1.76.0", "1.77", "1.77.2"));

  /** The tools every installer below relies on; emitted once before the first runtime. */
  static final String PREREQUISITES =
      """
      # Tools the runtime installers need.
      RUN apt-get update \\
       && apt-get install -y --no-install-recommends ca-certificates curl gnupg xz-utils \\
       && rm -rf /var/lib/apt/lists/*
      """;

  /** Reads the Debian/Ubuntu codename of the base image, for third-party apt repositories. */
  private static final String CODENAME =
      "codename=\"$(. /etc/os-release && echo \"$VERSION_CODENAME\")\"";

  private RuntimeInstallers() {}

  /**
   * The section installing {@code language} at {@code version}.
   *
   * @throws IllegalArgumentException when the pair is not in the catalog
   */
  static String section(String language, String version) {
    var pinned = pinnedRelease(language, version);
    return switch (language) {
      case "python" -> python(pinned);
      case "nodejs" -> nodejs(version, pinned);
      case "go" -> go(version, pinned);
      case "php" -> php(pinned);
      case "java" -> java(pinned);
      case "ruby" -> ruby(version, pinned);
      case "rust" -> rust(version, pinned);
      default -> throw new IllegalArgumentException("No installer for runtime " + language);
    };
  }

  static String pinnedRelease(String language, String version) {
    var pinned = PINNED.getOrDefault(language, Map.of()).get(version);
    if (pinned == null || !RuntimeCatalog.isSupported(language, version)) {
      throw new IllegalArgumentException(
          "Unsupported runtime "
              + MessageText.literal(language)
              + " "
              + MessageText.literal(version));
    }
    return pinned;
  }

  // uv installs a CPython build from python-build-standalone: prebuilt, so no compiler and minutes
  // saved over building from python.org sources. The uv release pins the exact patch of each line.
  // uv marks its Pythons externally managed (PEP 668); the pip step of the renderer allows it.
  private static String python(String version) {
    return """
    # Runtime: python %1$s (CPython from python-build-standalone, installed by uv %2$s)
    # Sources: https://github.com/astral-sh/uv/releases, https://github.com/astral-sh/python-build-standalone/releases
    RUN export UV_PYTHON_INSTALL_DIR=/opt/python UV_PYTHON_BIN_DIR=/usr/local/bin UV_PYTHON_PREFERENCE=only-managed \\
     && curl -fsSL "https://github.com/astral-sh/uv/releases/download/%2$s/uv-$(uname -m)-unknown-linux-gnu.tar.gz" \\
        | tar -xz -C /usr/local/bin --strip-components=1 \\
     && uv python install %1$s \\
     && ln -sf "$(uv python find %1$s)" /usr/local/bin/python3 \\
     && ln -sf /usr/local/bin/python3 /usr/local/bin/python \\
     && python3 --version && python3 -m pip --version
    """
        .formatted(version, UV_VERSION);
  }

  private static String nodejs(String version, String release) {
    var file = "node-v" + release + "-linux-${node_arch}.tar.xz";
    return """
    # Runtime: nodejs %3$s (%1$s, official binaries, checked against SHASUMS256.txt)
    # Source: https://nodejs.org/dist/
    RUN arch="$(dpkg --print-architecture)" \\
     && case "$arch" in amd64) node_arch=x64 ;; arm64) node_arch=arm64 ;; *) echo "unsupported architecture $arch" >&2; exit 1 ;; esac \\
     && cd /tmp \\
     && curl -fsSLO "https://nodejs.org/dist/v%1$s/%2$s" \\
     && curl -fsSL "https://nodejs.org/dist/v%1$s/SHASUMS256.txt" | grep " %2$s\\$" | sha256sum -c - \\
     && tar -xJf "%2$s" -C /usr/local --strip-components=1 --no-same-owner \\
     && rm "%2$s" \\
     && node --version && npm --version
    """
        .formatted(release, file, version);
  }

  // go.dev/dl serves its files from dl.google.com, together with a .sha256 file per archive.
  private static String go(String version, String release) {
    return """
    # Runtime: go %2$s (%1$s, official binaries, checked against the published .sha256)
    # Source: https://go.dev/dl/ (served from https://dl.google.com/go/)
    RUN arch="$(dpkg --print-architecture)" \\
     && curl -fsSLo /tmp/go.tar.gz "https://dl.google.com/go/go%1$s.linux-${arch}.tar.gz" \\
     && echo "$(curl -fsSL "https://dl.google.com/go/go%1$s.linux-${arch}.tar.gz.sha256")  /tmp/go.tar.gz" | sha256sum -c - \\
     && rm -rf /usr/local/go \\
     && tar -xzf /tmp/go.tar.gz -C /usr/local \\
     && rm /tmp/go.tar.gz \\
     && /usr/local/go/bin/go version
    ENV PATH=/usr/local/go/bin:$PATH
    """
        .formatted(release, version);
  }

  // Debian ships one PHP per release (8.2 in bookworm); packages.sury.org is the repository of
  // Debian's PHP maintainer and carries every supported line.
  private static String php(String line) {
    var p = "php" + line;
    return """
    # Runtime: php %1$s (packages.sury.org, newest %1$s.x at build time)
    # Source: https://packages.sury.org/php/
    RUN curl -fsSLo /tmp/debsuryorg-archive-keyring.deb https://packages.sury.org/debsuryorg-archive-keyring.deb \\
     && dpkg -i /tmp/debsuryorg-archive-keyring.deb \\
     && rm /tmp/debsuryorg-archive-keyring.deb \\
     && %3$s \\
     && echo "deb [signed-by=/usr/share/keyrings/debsuryorg-archive-keyring.gpg] https://packages.sury.org/php/ ${codename} main" > /etc/apt/sources.list.d/php.list \\
     && apt-get update \\
     && apt-get install -y --no-install-recommends %2$s-cli %2$s-common %2$s-curl %2$s-mbstring %2$s-xml %2$s-zip \\
     && rm -rf /var/lib/apt/lists/* \\
     && php --version
    """
        .formatted(line, p, CODENAME);
  }

  private static String java(String major) {
    return """
    # Runtime: java %1$s (Eclipse Temurin JDK, newest %1$s update at build time)
    # Source: https://packages.adoptium.net/
    RUN curl -fsSL https://packages.adoptium.net/artifactory/api/gpg/key/public | gpg --dearmor -o /usr/share/keyrings/adoptium.gpg \\
     && %2$s \\
     && echo "deb [signed-by=/usr/share/keyrings/adoptium.gpg] https://packages.adoptium.net/artifactory/deb ${codename} main" > /etc/apt/sources.list.d/adoptium.list \\
     && apt-get update \\
     && apt-get install -y --no-install-recommends temurin-%1$s-jdk \\
     && rm -rf /var/lib/apt/lists/* \\
     && java -version
    """
        .formatted(major, CODENAME);
  }

  // Built from the official source release, as the Docker Official ruby image does: Debian has
  // one Ruby per release and third-party binaries are built for other distributions.
  private static String ruby(String line, String release) {
    return """
    # Runtime: ruby %2$s (%1$s, built from the official source release)
    # Source: https://cache.ruby-lang.org/pub/ruby/
    RUN apt-get update \\
     && apt-get install -y --no-install-recommends build-essential libffi-dev libgdbm-dev libreadline-dev libssl-dev libyaml-dev zlib1g-dev \\
     && rm -rf /var/lib/apt/lists/* \\
     && mkdir -p /usr/src/ruby \\
     && curl -fsSL "https://cache.ruby-lang.org/pub/ruby/%2$s/ruby-%1$s.tar.gz" | tar -xz -C /usr/src/ruby --strip-components=1 \\
     && cd /usr/src/ruby \\
     && ./configure --disable-install-doc --enable-shared \\
     && make -j"$(nproc)" \\
     && make install \\
     && cd / \\
     && rm -rf /usr/src/ruby \\
     && ruby --version && gem --version
    """
        .formatted(release, line);
  }

  // rustup as the official rust image uses it; the homes are made writable so that the agent
  // (uid 10001) can fetch crates and add components.
  private static String rust(String version, String toolchain) {
    return """
    # Runtime: rust %3$s (toolchain %1$s via rustup %2$s, minimal profile)
    # Source: https://static.rust-lang.org/
    ENV RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo PATH=/usr/local/cargo/bin:$PATH
    RUN apt-get update \\
     && apt-get install -y --no-install-recommends gcc libc6-dev \\
     && rm -rf /var/lib/apt/lists/* \\
     && curl -fsSLo /tmp/rustup-init "https://static.rust-lang.org/rustup/archive/%2$s/$(uname -m)-unknown-linux-gnu/rustup-init" \\
     && chmod +x /tmp/rustup-init \\
     && /tmp/rustup-init -y --no-modify-path --profile minimal --default-toolchain %1$s \\
     && rm /tmp/rustup-init \\
     && chmod -R a+w "$RUSTUP_HOME" "$CARGO_HOME" \\
     && rustc --version && cargo --version
    """
        .formatted(toolchain, RUSTUP_VERSION, version);
  }
}
