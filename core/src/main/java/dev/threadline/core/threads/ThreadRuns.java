package dev.threadline.core.threads;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Runs of a thread: how each is named and built, whoever asks for it (a REST message, a
 * schedule firing). One user message is one Run.
 */
public final class ThreadRuns {
  /** {@code spec.source} of a run a client asked for. */
  public static final String SOURCE_API = "api";

  /** {@code spec.source} of a run a schedule fired. */
  public static final String SOURCE_SCHEDULE = "schedule";

  /**
   * The finalizer that keeps a Run until its usage is counted. A Run is created with it, so that
   * the usage recorder need not add it in a write of its own (one write fewer per run, each seen by
   * every Run informer); the recorder adds it to a Run made without it and removes it.
   */
  public static final String USAGE_FINALIZER = "threadline.dev/usage";

  private ThreadRuns() {}

  /**
   * {@code run-<thread suffix>-<sequence>}: deterministic, so that two racing creations of the same
   * message collide (AlreadyExists) instead of running twice.
   */
  public static String runName(String threadName, long sequence) {
    return "run-" + threadName.substring(threadName.indexOf('-') + 1) + "-" + sequence;
  }

  /**
   * The run at {@code sequence} in {@code thread}: labelled with the thread, owned by it (deleting
   * the thread deletes its runs), held for its usage count ({@link #USAGE_FINALIZER}), and bound to
   * the thread's agent and environment as they are now.
   */
  public static Run newRun(
      ConversationThread thread,
      long sequence,
      String message,
      List<Attachment> attachments,
      String source) {
    String threadName = thread.getMetadata().getName();
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.THREAD, threadName);
    labels.put(Labels.MANAGED_BY, Labels.MANAGER);
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(thread.getMetadata().getNamespace())
            .withName(runName(threadName, sequence))
            .withLabels(labels)
            .withOwnerReferences(OwnerReferences.controller(thread))
            .withFinalizers(USAGE_FINALIZER)
            .build());
    RunSpec spec = new RunSpec();
    spec.setThread(threadName);
    spec.setSequence(sequence);
    spec.setMessage(message);
    spec.setAttachments(
        attachments == null || attachments.isEmpty() ? null : List.copyOf(attachments));
    if (thread.getSpec() != null) {
      spec.setAgent(thread.getSpec().getAgent());
      spec.setEnvironment(thread.getSpec().getEnvironment());
    }
    spec.setSource(source);
    run.setSpec(spec);
    return run;
  }
}
