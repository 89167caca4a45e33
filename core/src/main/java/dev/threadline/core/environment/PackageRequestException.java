package dev.threadline.core.environment;

/**
 * A packages request the contract rejects with 400; the message is the contract's exact text, so
 * the api-server can put it into {@code {error, message}} unchanged.
 */
public final class PackageRequestException extends IllegalArgumentException {

  /** Contract message when {@code type} is not system, python or node. */
  public static final String INVALID_PACKAGE_TYPE = "Invalid package type";

  /** Contract message when {@code packages} is missing, not an array, or empty. */
  public static final String EMPTY_PACKAGES = "packages must be a non-empty array";

  private final String field;

  public PackageRequestException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The request field at fault: {@code type} or {@code packages}. */
  public String field() {
    return field;
  }
}
