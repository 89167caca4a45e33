package dev.threadline.api.threads;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the Run for one user message of a thread. */
final class RunFactory {
  static final String SOURCE_API = "api";

  private RunFactory() {}

  /**
   * The run at {@code sequence} in {@code thread}: named after both, labelled with the thread,
   * owned by it (deleting the thread deletes its runs), and bound to the thread's agent and
   * environment as they are now.
   */
  static Run newRun(ConversationThread thread, long sequence, String message, List<Attachment> attachments) {
    String threadName = thread.getMetadata().getName();
    Run run = new Run();
    run.setMetadata(new ObjectMetaBuilder()
        .withNamespace(thread.getMetadata().getNamespace())
        .withName(RunNames.runName(threadName, sequence))
        .withLabels(new LinkedHashMap<>(Map.of(Labels.THREAD, threadName, Labels.MANAGED_BY, Labels.MANAGER)))
        .withOwnerReferences(new OwnerReferenceBuilder()
            .withApiVersion(HasMetadata.getApiVersion(ConversationThread.class))
            .withKind(HasMetadata.getKind(ConversationThread.class))
            .withName(threadName)
            .withUid(thread.getMetadata().getUid())
            .withController(true)
            .build())
        .build());
    RunSpec spec = new RunSpec();
    spec.setThread(threadName);
    spec.setSequence(sequence);
    spec.setMessage(message);
    spec.setAttachments(attachments.isEmpty() ? null : List.copyOf(attachments));
    if (thread.getSpec() != null) {
      spec.setAgent(thread.getSpec().getAgent());
      spec.setEnvironment(thread.getSpec().getEnvironment());
    }
    spec.setSource(SOURCE_API);
    run.setSpec(spec);
    return run;
  }
}
