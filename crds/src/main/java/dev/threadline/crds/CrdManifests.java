package dev.threadline.crds;

/**
 * Where the committed CRD manifests ({@code crds/*.threadline.dev.yaml}, the files users apply) are
 * on the classpath: the embedded API and tests load them from here rather than the generator's
 * output, whose printer columns are sorted by JSON path.
 */
public final class CrdManifests {
  /**
   * The classpath folder, without a leading slash (as {@link ClassLoader#getResources} wants it).
   */
  public static final String FOLDER = "META-INF/threadline/crds/";

  public static final String SUFFIX = ".threadline.dev.yaml";

  private CrdManifests() {}

  /** The manifest of a kind by its plural, for {@link Class#getResourceAsStream}. */
  public static String resourceOf(String plural) {
    return "/" + FOLDER + plural + SUFFIX;
  }
}
