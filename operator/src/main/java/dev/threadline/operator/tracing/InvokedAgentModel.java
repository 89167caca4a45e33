package dev.threadline.operator.tracing;

import dev.threadline.crds.run.Run;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.TextDeltas;
import java.util.function.Supplier;

/** The direct path's model: a call is the run's agent invocation, with the chat under it. */
final class InvokedAgentModel implements ModelProvider {
  private final Run run;
  private final ModelProvider chats;
  private final AgentTracing tracing;

  InvokedAgentModel(Run run, ModelProvider chats, AgentTracing tracing) {
    this.run = run;
    this.chats = chats;
    this.tracing = tracing;
  }

  @Override
  public String name() {
    return chats.name();
  }

  @Override
  public ModelReply complete(ModelRequest request) {
    return invoke(request, () -> chats.complete(request));
  }

  @Override
  public ModelReply stream(ModelRequest request, TextDeltas deltas) {
    return invoke(request, () -> chats.stream(request, deltas));
  }

  /** The catalog's shared client stays open: this wrapper lives for one reconcile. */
  @Override
  public void close() {}

  private ModelReply invoke(ModelRequest request, Supplier<ModelReply> call) {
    return AgentTracing.within(
        tracing.agentContext(run, chats.name(), request.model()),
        call::get,
        reply -> {},
        ChatAttributes::errorType);
  }
}
