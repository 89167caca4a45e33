package dev.threadline.api.errors;

/** 402 Payment Required: the monthly allowance is used up; the body carries {@code usage}. */
public final class UsageExhaustedException extends ApiException {
  /** The contract's message, exactly. */
  public static final String MESSAGE = "monthly usage allowance exhausted";

  private final Usage usage;

  public UsageExhaustedException(Usage usage) {
    super(ErrorKind.PAYMENT_REQUIRED, MESSAGE);
    this.usage = usage;
  }

  public Usage usage() {
    return usage;
  }

  @Override
  public ErrorBody body() {
    return new ErrorBody(kind().error(), getMessage(), usage);
  }
}
