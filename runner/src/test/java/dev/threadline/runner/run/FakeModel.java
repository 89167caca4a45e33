package dev.threadline.runner.run;

import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A model that answers from a script, and remembers what it was asked and how it was configured.
 */
final class FakeModel implements ModelProvider {

  private final Deque<Supplier<ModelReply>> script = new ArrayDeque<>();
  private Supplier<ModelReply> whenScriptEnds = () -> reply("(the script ended)");
  final List<ModelRequest> requests = new ArrayList<>();
  ModelSettings settings;
  boolean closed;

  FakeModel then(Supplier<ModelReply> step) {
    script.add(step);
    return this;
  }

  FakeModel thenCall(String tool, Map<String, ?> arguments) {
    return then(() -> callReply("", tool, arguments));
  }

  FakeModel thenSay(String text) {
    return then(() -> reply(text));
  }

  FakeModel always(Supplier<ModelReply> step) {
    whenScriptEnds = step;
    return this;
  }

  /** The factory the run uses: it records the settings and hands out this model. */
  ModelProvider create(ModelSettings settings) {
    this.settings = settings;
    return this;
  }

  static ModelReply reply(String text) {
    return new ModelReply(text, List.of(), new Usage(100, 10, 40), StopReason.END_TURN);
  }

  static ModelReply callReply(String text, String tool, Map<String, ?> arguments) {
    return new ModelReply(
        text,
        List.of(ToolCall.of("call_" + System.nanoTime(), tool, arguments)),
        new Usage(100, 10, 40),
        StopReason.TOOL_USE);
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public synchronized ModelReply complete(ModelRequest request) {
    requests.add(request);
    return (script.isEmpty() ? whenScriptEnds : script.poll()).get();
  }

  @Override
  public void close() {
    closed = true;
  }
}
