package dev.threadline.models;

/** Receives a reply's text as the model writes it, piece by piece, in order. */
@FunctionalInterface
public interface TextDeltas {

  /** A listener that ignores the pieces. */
  TextDeltas IGNORE = delta -> {};

  /**
   * One more piece of the reply's text; never empty. Called on the caller's thread, before {@link
   * ModelProvider#stream} returns; a slow listener slows the stream down.
   */
  void onText(String delta);
}
