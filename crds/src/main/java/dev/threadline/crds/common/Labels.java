package dev.threadline.crds.common;

/** Labels and annotations Threadline puts on the objects it owns or reads. */
public final class Labels {
  private static final String PREFIX = ThreadlineGroup.GROUP + "/";

  /**
   * On a user's namespace: the user id it belongs to (annotation, since ids may not be label
   * values).
   */
  public static final String USER_ANNOTATION = PREFIX + "user";

  /** On a user's namespace: marks it as a Threadline tenant namespace. */
  public static final String TENANT = PREFIX + "tenant";

  /** On an API key Secret: marks it as one. */
  public static final String API_KEY = PREFIX + "api-key";

  /** On a Run (and its Pod): the name of its Thread. */
  public static final String THREAD = PREFIX + "thread";

  /** On a Run or Thread a schedule created: the Schedule's name. */
  public static final String SCHEDULE = PREFIX + "schedule";

  /** On objects made for one Run (its Pod): the Run's name. */
  public static final String RUN = PREFIX + "run";

  /**
   * On a Run (annotation): {@code true} when its message was posted to an existing thread, whose
   * stream takes the contract's general form rather than the new-thread sequences.
   */
  public static final String POSTED_TO_THREAD = PREFIX + "posted-to-thread";

  /**
   * Annotation: when the API server created the resource (ISO 8601 UTC, milliseconds), which orders
   * lists newest first even within one second.
   */
  public static final String CREATED_AT = PREFIX + "created-at";

  /** Which component manages an object. */
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  public static final String MANAGER = "threadline";

  private Labels() {}
}
