package dev.threadline.api.common;

/** {@code {success: true}}, the body of a completed DELETE. */
public record SuccessResponse(boolean success) {
  public static final SuccessResponse OK = new SuccessResponse(true);
}
