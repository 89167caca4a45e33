package dev.threadline.core.routing;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a message is routed when no model classifies it: work (commands, files, code changes) goes to
 * the computer; greetings, questions and explanations are answered directly. The first rule that
 * matches decides, so the order below is the policy.
 */
public final class RoutingRules {
  private static final Pattern BACKTICKED = Pattern.compile("`[^`\\n]+`|```");
  private static final Pattern SHELL_PROMPT = Pattern.compile("(?m)^\\s*\\$ \\S");
  private static final Pattern FILE_REFERENCE =
      Pattern.compile(
          "(?<![\\w/])(?:\\./|/)?(?:[\\w.-]+/)*[\\w-]+\\.(?:py|js|ts|java|go|rs|rb|php|c|h|cpp|sh|md|txt|json|ya?ml|toml|csv|html|css|sql|xml|ini|cfg|lock)\\b");
  private static final List<String> ACTION_VERBS =
      List.of(
          "run",
          "execute",
          "install",
          "uninstall",
          "create",
          "make",
          "write",
          "edit",
          "modify",
          "change",
          "update",
          "delete",
          "remove",
          "rename",
          "move",
          "copy",
          "build",
          "compile",
          "test",
          "deploy",
          "fix",
          "refactor",
          "implement",
          "add",
          "clone",
          "download",
          "fetch",
          "generate",
          "scaffold",
          "set up",
          "setup",
          "configure",
          "list",
          "find",
          "search",
          "grep",
          "open",
          "read",
          "save",
          "commit",
          "push",
          "merge",
          "format",
          "lint",
          "benchmark",
          "profile",
          "debug",
          "migrate",
          "upgrade");
  private static final Pattern POLITE_PREFIX =
      Pattern.compile(
          "^(?:please|pls|kindly|could you|can you|would you|will you|i need you to|i want you"
              + " to|go ahead and|now)\\s+");
  private static final Pattern GREETING =
      Pattern.compile(
          "^(?:hi|hello|hey|howdy|hiya|yo|greetings|good"
              + " (?:morning|afternoon|evening|day)|thanks|thank you|bye|goodbye)\\b.*");
  private static final Pattern QUESTION_START =
      Pattern.compile(
          "^(?:what|why|how|who|whom|whose|when|where|which|is|are|was|were|do|does|did|should|could|would|can|may|explain|describe|tell"
              + " me|define|compare|summari[sz]e what)\\b.*");

  private RoutingRules() {}

  public static RoutingDecision route(String message, boolean hasAttachments) {
    String text = message == null ? "" : message.strip();
    if (BACKTICKED.matcher(text).find() || SHELL_PROMPT.matcher(text).find()) {
      return computer("the message contains a command to run");
    }
    String lower = text.toLowerCase(Locale.ROOT);
    Optional<String> verb = leadingActionVerb(lower);
    if (verb.isPresent()) {
      return computer("the message asks to " + verb.get() + " something");
    }
    Matcher file = FILE_REFERENCE.matcher(text);
    if (file.find() && !QUESTION_START.matcher(lower).matches()) {
      return computer("the message refers to the file " + file.group());
    }
    if (hasAttachments && !QUESTION_START.matcher(lower).matches()) {
      return computer("files are attached to work on");
    }
    if (text.isEmpty()) {
      return direct("the message is empty");
    }
    if (GREETING.matcher(lower).matches()) {
      return direct("the message is a greeting");
    }
    if (QUESTION_START.matcher(lower).matches() || lower.endsWith("?")) {
      return direct("the message is a question");
    }
    return direct("no command, file or change was asked for");
  }

  /** The action verb the message opens with, after any politeness ("please", "can you"...). */
  private static Optional<String> leadingActionVerb(String lower) {
    for (String sentence : lower.split("(?<=[.!;\\n])\\s*")) {
      String rest = sentence.strip();
      Matcher polite;
      while ((polite = POLITE_PREFIX.matcher(rest)).find()) {
        rest = rest.substring(polite.end());
      }
      for (String verb : ACTION_VERBS) {
        if (rest.startsWith(verb + " ") || rest.equals(verb)) {
          return Optional.of(verb);
        }
      }
    }
    return Optional.empty();
  }

  private static RoutingDecision computer(String reason) {
    return new RoutingDecision(Route.COMPUTER, reason);
  }

  private static RoutingDecision direct(String reason) {
    return new RoutingDecision(Route.DIRECT, reason);
  }
}
