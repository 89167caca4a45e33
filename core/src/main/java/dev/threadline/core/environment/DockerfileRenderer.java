package dev.threadline.core.environment;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Renders the effective Dockerfile of an environment, in a fixed order: base image, hash header,
 * runtimes, system/python/node packages, the user's extensions, setup scripts, then what the agent
 * Pod needs to start the runner (its files, user 10001, {@code /workspace}, the entrypoint).
 *
 * <p>Rendering is deterministic: runtimes in catalog order, packages and setup scripts in the order
 * declared, line endings of the extensions normalised to {@code \n}. The same spec and the same
 * constructor arguments always give the same bytes, hence the same {@link BuildHash}.
 *
 * <p>A Debian or Ubuntu base is assumed (apt, dpkg, useradd, bash).
 */
public final class DockerfileRenderer {

  /** uid and gid of the agent user; also what the operator's Pod securityContext expects. */
  public static final int RUNNER_UID = 10001;

  public static final String RUNNER_HOME = "/opt/threadline";
  public static final String WORKSPACE = "/workspace";

  /** Base64 text per Dockerfile line: BuildKit's and Kaniko's parsers refuse lines over 64 KiB. */
  private static final int BASE64_LINE = 76;

  private static final String SETUP_DIR = "/tmp/threadline-setup";

  private final String defaultBaseImage;
  private final String runnerImage;

  /**
   * @param defaultBaseImage the service's own base image, used when a spec names none (e.g. {@link
   *     ImageDefaults#BASE_IMAGE})
   * @param runnerImage the image that carries the runner under {@code /opt/threadline}
   */
  public DockerfileRenderer(String defaultBaseImage, String runnerImage) {
    this.defaultBaseImage = ImageReferences.require(defaultBaseImage, "default base image");
    this.runnerImage = ImageReferences.require(runnerImage, "runner image");
  }

  /**
   * Renders {@code spec}.
   *
   * @throws InvalidImageSpecException when {@link ImageSpecValidator} finds a problem; nothing
   *     unchecked ever reaches a {@code RUN} line
   */
  public EffectiveDockerfile render(ImageSpec spec) {
    var errors = ImageSpecValidator.validate(spec);
    if (!errors.isEmpty()) {
      throw new InvalidImageSpecException(errors);
    }
    var from = "FROM " + (spec.baseImage() != null ? spec.baseImage() : defaultBaseImage) + "\n";
    var body = body(spec);
    // The hash names itself in the header, so it is computed over everything but the header.
    var hash = BuildHash.of(from + body, runnerImage);
    return new EffectiveDockerfile(from + header(hash) + body, hash);
  }

  private static String header(BuildHash hash) {
    return """
    # Threadline environment image, build hash %s
    # Generated from the environment's baseImage, runtimes, packages, dockerfileExtensions and
    # setupScripts: change those, not this file. The builder must reach the sources named below.
    """
        .formatted(hash);
  }

  private String body(ImageSpec spec) {
    var out = new StringBuilder();
    out.append("\nUSER root\n");
    // An ARG, unlike an ENV, does not stay in the image: apt is quiet at build time only.
    out.append("ARG DEBIAN_FRONTEND=noninteractive\n");
    appendRuntimes(out, spec);
    appendPackages(out, spec.packages());
    appendExtensions(out, spec.dockerfileExtensions());
    appendSetupScripts(out, spec.setupScripts());
    appendRunner(out);
    return out.toString();
  }

  private static void appendRuntimes(StringBuilder out, ImageSpec spec) {
    if (spec.runtimes().isEmpty()) {
      return;
    }
    out.append('\n').append(RuntimeInstallers.PREREQUISITES);
    for (var language : RuntimeCatalog.languages()) {
      var version = spec.runtimes().get(language);
      if (version != null) {
        out.append('\n').append(RuntimeInstallers.section(language, version));
      }
    }
  }

  private static void appendPackages(StringBuilder out, Packages packages) {
    if (!packages.system().isEmpty()) {
      out.append("\n# System packages (apt)\n")
          .append("RUN apt-get update \\\n")
          .append(" && apt-get install -y --no-install-recommends \\\n");
      appendQuotedNames(out, packages.system());
      out.append(" && rm -rf /var/lib/apt/lists/*\n");
    }
    if (!packages.python().isEmpty()) {
      // python3 -m pip reaches the pip of the python on PATH (a runtime above, or the base's).
      // Installing into it is what an image is for: PEP 668's guard is lifted for this step only.
      out.append("\n# Python packages (pip, from PyPI)\n")
          .append("RUN PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore")
          .append(" PIP_DISABLE_PIP_VERSION_CHECK=1 \\\n")
          .append("    python3 -m pip install --no-cache-dir \\\n");
      appendQuotedNames(out, packages.python());
      trimContinuation(out);
    }
    if (!packages.node().isEmpty()) {
      out.append("\n# Node packages (npm, global, from the npm registry)\n")
          .append("RUN npm install -g --no-fund --no-audit \\\n");
      appendQuotedNames(out, packages.node());
      out.append(" && npm cache clean --force\n");
    }
  }

  private static void appendQuotedNames(StringBuilder out, List<String> names) {
    for (var name : names) {
      out.append("      ").append(ShellQuoting.quote(name)).append(" \\\n");
    }
  }

  /** Ends the current instruction when no {@code && ...} follows the last continued line. */
  private static void trimContinuation(StringBuilder out) {
    out.setLength(out.length() - " \\\n".length());
    out.append('\n');
  }

  private static void appendExtensions(StringBuilder out, String extensions) {
    if (extensions == null || extensions.isBlank()) {
      return;
    }
    var normalised = extensions.replace("\r\n", "\n").replace('\r', '\n').stripTrailing();
    out.append("\n# dockerfileExtensions (verbatim)\n").append(normalised).append('\n');
    // Extensions may switch user; the setup scripts and the runner section need root.
    out.append("\n# Back to root for the steps below, whatever the extensions did.\nUSER root\n");
  }

  /**
   * Each script is carried base64-encoded and decoded into a file at build time. Base64 has no
   * quote, {@code $}, backslash, newline or {@code #}, so no script text can end the single-quoted
   * word, the {@code RUN} instruction or the Dockerfile line; the encoded text is wrapped with
   * Dockerfile line continuations, which the parser joins before the shell sees the line. (Heredocs
   * would read better but are not supported by every builder the operator may use.)
   */
  private static void appendSetupScripts(StringBuilder out, List<SetupScript> scripts) {
    for (int i = 0; i < scripts.size(); i++) {
      var script = scripts.get(i);
      var file = "%s/%02d-%s.sh".formatted(SETUP_DIR, i + 1, slug(script.name()));
      // A shebang picks the interpreter; otherwise bash, stopping at the first failing command.
      var run = script.script().startsWith("#!") ? file : "bash -e " + file;
      out.append("\n# Setup script ")
          .append(i + 1)
          .append(": ")
          .append(MessageText.literal(script.name() == null ? "" : script.name()))
          .append('\n')
          .append("RUN mkdir -p ")
          .append(SETUP_DIR)
          .append(" \\\n")
          .append(" && printf '%s' '");
      appendWrappedBase64(out, script.script());
      out.append("' | base64 -d > ")
          .append(file)
          .append(" \\\n")
          .append(" && chmod 0755 ")
          .append(file)
          .append(" \\\n")
          .append(" && ")
          .append(run)
          .append(" \\\n")
          .append(" && rm -rf ")
          .append(SETUP_DIR)
          .append('\n');
    }
  }

  private static void appendWrappedBase64(StringBuilder out, String text) {
    var encoded = Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    for (int start = 0; start < encoded.length(); start += BASE64_LINE) {
      out.append("\\\n").append(encoded, start, Math.min(encoded.length(), start + BASE64_LINE));
    }
  }

  private static String slug(String name) {
    if (name == null) {
      return "script";
    }
    var slug =
        name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (slug.length() > 40) {
      slug = slug.substring(0, 40).replaceAll("-+$", "");
    }
    return slug.isEmpty() ? "script" : slug;
  }

  private void appendRunner(StringBuilder out) {
    out.append(
        """

        # Threadline runner: what the agent Pod starts
        COPY --from=%1$s %2$s %2$s
        RUN (getent group %3$d >/dev/null || groupadd --gid %3$d threadline) \\
         && (getent passwd %3$d >/dev/null || useradd --uid %3$d --gid %3$d --create-home --shell /bin/bash threadline) \\
         && mkdir -p %4$s \\
         && chown %3$d:%3$d %4$s
        WORKDIR %4$s
        ENV THREADLINE_RUNNER_HOME=%2$s
        USER %3$d
        ENTRYPOINT ["%2$s/bin/runner"]
        """
            .formatted(runnerImage, RUNNER_HOME, RUNNER_UID, WORKSPACE));
  }
}
