package dev.threadline.api.threads;

import dev.threadline.api.errors.ApiException;
import java.util.ArrayList;
import java.util.List;

/**
 * The task a new thread starts with, from {@code messages} or its alias {@code task}. A run answers
 * one user message, so several initial messages are one task: their texts joined by a blank line,
 * in order. Only {@code user} messages may be sent; answers come from the agent.
 */
final class InitialTask {
  static final String USER = "user";

  private InitialTask() {}

  /** The task text, or null when the request has neither messages nor task. */
  static String of(ThreadRequests.Create request) {
    List<ThreadRequests.MessageInput> messages =
        request.messages() == null ? List.of() : request.messages();
    if (request.task() != null) {
      if (!messages.isEmpty()) {
        throw ApiException.badRequest(
            "task", "cannot be combined with messages (it is an alias for the first message)");
      }
      return ThreadRules.content("task", request.task());
    }
    if (messages.isEmpty()) {
      return null;
    }
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      ThreadRequests.MessageInput message = messages.get(i);
      String field = "messages[" + i + "]";
      if (message == null) {
        throw ApiException.badRequest(field, "must be an object");
      }
      if (message.role() != null && !USER.equals(message.role())) {
        throw ApiException.badRequest(field + ".role", "must be user");
      }
      texts.add(ThreadRules.content(field + ".content", message.content()));
    }
    return ThreadRules.content("messages", String.join("\n\n", texts));
  }
}
