package dev.threadline.api.threads;

import dev.threadline.api.webhooks.WebhookInput;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Request bodies of the thread endpoints. Unknown fields are ignored. */
public final class ThreadRequests {
  private ThreadRequests() {}

  /**
   * {@code POST /v1/threads}: every field optional. With {@code messages} (or {@code task}) the
   * thread starts running; with a {@code schedule} as well, the schedule runs the task instead.
   * {@code streamTokens} (beyond the contract) adds text deltas to the stream.
   */
  public record Create(
      String environmentId,
      String agentId,
      String title,
      List<MessageInput> messages,
      String task,
      Boolean stream,
      ScheduleInput schedule,
      List<AttachmentInput> attachments,
      String appId,
      JsonNode metadata,
      Boolean streamTokens) {}

  /** An initial message; {@code role} defaults to {@code user}, the only role a client may send. */
  public record MessageInput(String role, String content) {}

  /**
   * The contract's {@code schedule} object; {@code scheduledTime} for one-time schedules, and
   * {@code webhooks} (beyond the contract) as on {@code POST /v1/schedules}.
   */
  public record ScheduleInput(
      String type,
      String name,
      String cronExpression,
      String timezone,
      String scheduledTime,
      List<WebhookInput> webhooks) {}

  /** A file: {@code content} (base64) or {@code url}, exactly one of them. */
  public record AttachmentInput(String name, String mediaType, String content, String url) {}

  /** {@code PATCH /v1/threads/:threadId}: absent fields stay; an empty title removes it. */
  public record Update(String title, JsonNode metadata) {}

  /**
   * {@code POST /v1/threads/:threadId/messages}. {@code stream: false} (beyond the contract, as on
   * thread creation) answers with one JSON body after the execution; {@code streamTokens} adds text
   * deltas to the stream; {@code multitaskStrategy} says what to do when the thread is still busy
   * ({@code reject}, the default, {@code enqueue}, {@code interrupt} or {@code rollback}).
   */
  public record PostMessage(
      String content,
      List<AttachmentInput> attachments,
      Boolean stream,
      Boolean streamTokens,
      String multitaskStrategy) {}
}
