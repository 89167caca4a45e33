package dev.threadline.local.kubeapi.store;

/** A write the store refuses; {@link #reason()} says why in the API server's terms. */
public final class StoreException extends RuntimeException {
  /** Why a write was refused. */
  public enum Reason {
    /** No object under that key. */
    NOT_FOUND,
    /** Create of a key that is taken. */
    ALREADY_EXISTS,
    /** The object changed since the resourceVersion the writer read. */
    CONFLICT,
    /**
     * The object, as the store would write it, is over {@link ObjectStore#MAX_OBJECT_BYTES}: etcd's
     * request limit.
     */
    TOO_LARGE
  }

  private final Reason reason;

  StoreException(Reason reason, ObjectKey key) {
    this(reason, reason + ": " + key);
  }

  private StoreException(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  /** A write of {@code bytes} refused as over {@code limit}. */
  static StoreException tooLarge(ObjectKey key, long bytes, long limit) {
    return new StoreException(
        Reason.TOO_LARGE,
        key.resource()
            + " "
            + (key.namespace().isEmpty() ? "" : key.namespace() + "/")
            + key.name()
            + " would take "
            + bytes
            + " bytes, over the limit of "
            + limit);
  }

  public Reason reason() {
    return reason;
  }
}
