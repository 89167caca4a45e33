package dev.threadline.operator.support;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** Runs in a given state, for tests of pure logic. */
public final class Runs {
  private Runs() {}

  public static Run run(
      long sequence,
      String message,
      String phase,
      String response,
      long in,
      long out,
      double cost) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder().withName("thread-t-" + sequence).withNamespace("ns").build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-t");
    spec.setSequence(sequence);
    spec.setMessage(message);
    run.setSpec(spec);
    if (phase != null) {
      RunStatus status = new RunStatus();
      status.setPhase(phase);
      status.setResponse(response);
      TokenCounts usage = new TokenCounts();
      usage.setInputTokens(in);
      usage.setOutputTokens(out);
      usage.setCachedTokens(0L);
      status.setUsage(usage);
      status.setCost(cost);
      run.setStatus(status);
    }
    return run;
  }
}
