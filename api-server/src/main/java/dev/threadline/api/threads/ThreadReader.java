package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import java.util.ArrayList;
import java.util.List;

/**
 * A thread's messages, logs and diffs as the API shows them, for every protocol that serves them
 * (REST, MCP). Another user's thread is not found.
 */
public final class ThreadReader {
  private final ThreadService threads;
  private final RunContents contents;

  ThreadReader(ThreadService threads, RunContents contents) {
    this.threads = threads;
    this.contents = contents;
  }

  /** The conversation, oldest first unless {@code order} asks for the newest first; one page. */
  public ListEnvelope<MessageView> messages(
      Tenant tenant, String threadId, PageRequest page, String order) {
    List<MessageView> messages =
        new ArrayList<>(
            ConversationMessages.of(threads.runsOf(threads.find(tenant, threadId)), contents));
    if (ConversationMessages.newestFirst(order)) {
      messages = messages.reversed();
    }
    return page.apply(messages);
  }

  public ThreadLogResponse logs(Tenant tenant, String threadId) {
    ConversationThread thread = threads.find(tenant, threadId);
    List<Run> runs = threads.runsOf(thread);
    return ThreadLogs.of(threadId, runs, ThreadRollup.of(thread, runs), contents);
  }

  /** The workspace's latest diff of each file. */
  public DiffsResponse diffs(Tenant tenant, String threadId) {
    ConversationThread thread = threads.find(tenant, threadId);
    return new DiffsResponse(
        ThreadDiffs.of(
            contents.latestDiffs(
                thread.getMetadata().getNamespace(), thread.getMetadata().getName())));
  }
}
