package dev.threadline.core.events;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the runner's events from a stream of lines (a Pod's log), skipping every line that is not a
 * protocol line (see {@link RunnerEventCodec#parse(String)}).
 */
public final class RunnerEventReader implements Closeable {

  private final BufferedReader lines;
  private long skippedLines;

  public RunnerEventReader(Reader in) {
    this.lines = in instanceof BufferedReader buffered ? buffered : new BufferedReader(in);
  }

  /**
   * The next event; blocks until one arrives.
   *
   * @return the event, or empty at the end of the input
   */
  public Optional<RunnerEvent> next() throws IOException {
    String line;
    while ((line = lines.readLine()) != null) {
      Optional<RunnerEvent> event = RunnerEventCodec.parse(line);
      if (event.isPresent()) {
        return event;
      }
      if (!line.isBlank()) {
        skippedLines++;
      }
    }
    return Optional.empty();
  }

  /** How many non-blank lines were not protocol lines. */
  public long skippedLines() {
    return skippedLines;
  }

  /** Every event in {@code text}, in order. */
  public static List<RunnerEvent> readAll(String text) {
    List<RunnerEvent> events = new ArrayList<>();
    try (RunnerEventReader reader =
        new RunnerEventReader(new StringReader(text == null ? "" : text))) {
      for (Optional<RunnerEvent> event = reader.next(); event.isPresent(); event = reader.next()) {
        events.add(event.get());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("a string reader failed", e);
    }
    return events;
  }

  @Override
  public void close() throws IOException {
    lines.close();
  }
}
