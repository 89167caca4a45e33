package dev.threadline.operator.run;

import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.Usage;
import dev.threadline.operator.model.AgentProfile;
import java.util.List;

/** The direct path: one model call with the thread's history and the agent's instructions. */
public final class DirectAnswer {
  public RunOutcome answer(AgentProfile agent, ModelProvider provider, List<ChatMessage> history) {
    try {
      ModelReply reply =
          provider.complete(ModelRequest.of(agent.model(), agent.instructions(), history));
      return RunOutcome.answered(reply.text(), reply.usage());
    } catch (ModelException e) {
      RunErrorCode code =
          e.code() == ModelErrorCode.RATE_LIMITED
              ? RunErrorCode.RATE_LIMITED
              : RunErrorCode.EXECUTION_FAILED;
      return RunOutcome.failed(code, "The model could not answer: " + e.getMessage(), Usage.ZERO);
    }
  }
}
