package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything about an environment that shapes its image, and nothing else (no variables, secrets,
 * MCP servers: those reach the agent Pod at run time, never the image).
 *
 * <p>The record is lenient on purpose: null collections become empty, and null values inside them
 * are kept so that {@link ImageSpecValidator} can name the offending field instead of a
 * NullPointerException doing it. Runtimes are kept sorted by language so that two specs that differ
 * only in map order are equal.
 *
 * @param baseImage custom base image, or null for the service's default
 * @param runtimes language to version, e.g. {@code python -> 3.12}
 * @param packages package names by kind
 * @param dockerfileExtensions the user's extra instructions, verbatim, or null
 * @param setupScripts scripts run at build time, in order
 */
public record ImageSpec(
    String baseImage,
    Map<String, String> runtimes,
    Packages packages,
    String dockerfileExtensions,
    List<SetupScript> setupScripts) {

  public ImageSpec {
    runtimes =
        runtimes == null
            ? Map.of()
            : Collections.unmodifiableMap(new TreeMap<>(runtimes)); // null keys are rejected here
    packages = packages == null ? Packages.empty() : packages;
    setupScripts =
        setupScripts == null
            ? List.of()
            : Collections.unmodifiableList(new ArrayList<>(setupScripts));
  }

  /** An image on the default base with nothing added. */
  public static ImageSpec empty() {
    return new ImageSpec(null, Map.of(), Packages.empty(), null, List.of());
  }
}
