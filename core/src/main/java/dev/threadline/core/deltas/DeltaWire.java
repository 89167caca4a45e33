package dev.threadline.core.deltas;

/**
 * The live channel between the component that calls the model (the operator's run reconciler and
 * the worker) and the api-server replica that streams a run: {@code GET <status.deltaChannel>} with
 * {@code Authorization: Bearer <internal token>} answers NDJSON, one object a line, in the order
 * the producer made them, and ends when the producer is done.
 *
 * <ul>
 *   <li>{@code {"type":"response.output_text.delta","delta":"…","item_id":"msg_…"}}: model text
 *   <li>{@code {"type":"response.output_item.delta","delta":"…","item_id":"tool_…"}}: a command's
 *       output as it is produced
 *   <li>{@code {"type":"threadline.written","seq":N}}: every delta that precedes the Run's log
 *       entries up to seq N has been sent (the api-server holds those entries until it sees this)
 * </ul>
 *
 * Deltas are ephemeral: nothing on this channel is written to the Run.
 */
public final class DeltaWire {
  /** Where a replica serves its sessions: this path, then the session's id. */
  public static final String PATH = "/internal/v1/deltas/";

  public static final String TEXT_DELTA = "response.output_text.delta";
  public static final String OUTPUT_DELTA = "response.output_item.delta";
  public static final String WRITTEN = "threadline.written";

  /** The field of a Run log entry's data that names the item its deltas streamed under. */
  public static final String ITEM_ID = "itemId";

  private DeltaWire() {}
}
