package dev.threadline.operator.deltas;

import dev.threadline.models.TextDeltas;

/** Where a producer sends a run's deltas: a live {@link DeltaSession}, or nowhere. */
public interface Deltas {
  /** For runs that did not ask for deltas (or when the channel is off). */
  Deltas NONE =
      new Deltas() {
        @Override
        public TextDeltas text(String itemId) {
          return TextDeltas.IGNORE;
        }

        @Override
        public TextDeltas output(String itemId) {
          return TextDeltas.IGNORE;
        }

        @Override
        public void written(long seq) {}

        @Override
        public boolean live() {
          return false;
        }
      };

  /** A listener for the model text of item {@code itemId}. */
  TextDeltas text(String itemId);

  /** A listener for the command output of item {@code itemId}. */
  TextDeltas output(String itemId);

  /** Every delta sent so far precedes the Run's log entries up to {@code seq}. */
  void written(long seq);

  /** Whether anyone may read what is sent (the run asked for deltas and the channel is on). */
  boolean live();
}
