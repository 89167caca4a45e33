package dev.threadline.core.environment;

/** The kinds of package an environment installs, named as on the wire. */
public enum PackageType {
  SYSTEM("system"),
  PYTHON("python"),
  NODE("node");

  private final String wireName;

  PackageType(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in JSON bodies and paths: {@code system}, {@code python}, {@code node}. */
  public String wireName() {
    return wireName;
  }

  /**
   * The type named by a request (exact, lower-case wire name).
   *
   * @throws PackageRequestException with the contract's message {@code Invalid package type}
   */
  public static PackageType parse(String wireName) {
    for (var type : values()) {
      if (type.wireName.equals(wireName)) {
        return type;
      }
    }
    throw new PackageRequestException("type", PackageRequestException.INVALID_PACKAGE_TYPE);
  }
}
