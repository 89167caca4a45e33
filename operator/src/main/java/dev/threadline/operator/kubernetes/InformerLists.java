package dev.threadline.operator.kubernetes;

/** How the operator's informers read their first list (and every re-list after a lost watch). */
public final class InformerLists {
  /**
   * Objects per page: a store of 100,000 threads answers in bounded requests instead of one answer
   * holding all of them (and every informer then holds only what it selects).
   */
  public static final long PAGE = 500;

  private InformerLists() {}
}
