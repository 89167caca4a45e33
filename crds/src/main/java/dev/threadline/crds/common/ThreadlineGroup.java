package dev.threadline.crds.common;

/** The API group and version every Threadline custom resource lives in. */
public final class ThreadlineGroup {
  public static final String GROUP = "threadline.dev";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  /** The category `kubectl get threadline` lists. */
  public static final String CATEGORY = "threadline";

  private ThreadlineGroup() {}
}
