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
  // Every pattern here runs on user text of up to hundreds of thousands of characters, so each
  // is anchored or possessive: no start position makes it re-read what another already read.
  private static final Pattern BACKTICKED = Pattern.compile("`[^`\\n]++`|```");
  private static final Pattern SHELL_PROMPT = Pattern.compile("(?m)^[ \\t\\x0B\\f]*+\\$ \\S");
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
          "(?:please|pls|kindly|could you|can you|would you|will you|i need you to|i want you"
              + " to|go ahead and|now)\\s++",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern GREETING =
      Pattern.compile(
          "^(?:hi|hello|hey|howdy|hiya|yo|greetings|good"
              + " (?:morning|afternoon|evening|day)|thanks|thank you|bye|goodbye)\\b.*+",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern QUESTION_START =
      Pattern.compile(
          "^(?:what|why|how|who|whom|whose|when|where|which|is|are|was|were|do|does|did|should|could|would|can|may|explain|describe|tell"
              + " me|define|compare|summari[sz]e what)\\b.*+",
          Pattern.CASE_INSENSITIVE);

  private RoutingRules() {}

  public static RoutingDecision route(String message, boolean hasAttachments) {
    return route((CharSequence) (message == null ? "" : message), hasAttachments);
  }

  /** The rules on any text; the tests count the characters read through this. */
  static RoutingDecision route(CharSequence message, boolean hasAttachments) {
    CharSequence text = strip(message, 0, message.length());
    if (BACKTICKED.matcher(text).find() || SHELL_PROMPT.matcher(text).find()) {
      return computer("the message contains a command to run");
    }
    Optional<String> verb = leadingActionVerb(text);
    if (verb.isPresent()) {
      return computer("the message asks to " + verb.get() + " something");
    }
    boolean question = QUESTION_START.matcher(text).matches();
    Optional<String> file = FileReferences.first(text);
    if (file.isPresent() && !question) {
      return computer("the message refers to the file " + file.get());
    }
    if (hasAttachments && !question) {
      return computer("files are attached to work on");
    }
    if (text.isEmpty()) {
      return direct("the message is empty");
    }
    if (GREETING.matcher(text).matches()) {
      return direct("the message is a greeting");
    }
    if (question || text.charAt(text.length() - 1) == '?') {
      return direct("the message is a question");
    }
    return direct("no command, file or change was asked for");
  }

  /**
   * The action verb a sentence opens with, after any politeness ("please", "can you"...). A
   * sentence ends after {@code . ! ;} or a line break.
   */
  private static Optional<String> leadingActionVerb(CharSequence text) {
    int sentenceStart = 0;
    while (sentenceStart < text.length()) {
      int sentenceEnd = sentenceStart;
      while (sentenceEnd < text.length() && !endsSentence(text.charAt(sentenceEnd))) {
        sentenceEnd++;
      }
      sentenceEnd = Math.min(sentenceEnd + 1, text.length());
      Optional<String> verb = openingVerb(strip(text, sentenceStart, sentenceEnd));
      if (verb.isPresent()) {
        return verb;
      }
      sentenceStart = sentenceEnd;
    }
    return Optional.empty();
  }

  private static Optional<String> openingVerb(CharSequence sentence) {
    Matcher polite = POLITE_PREFIX.matcher(sentence);
    int rest = 0;
    while (polite.region(rest, sentence.length()).lookingAt()) {
      rest = polite.end();
    }
    if (rest == sentence.length()) {
      return Optional.empty();
    }
    char first = Character.toLowerCase(sentence.charAt(rest));
    for (String verb : ACTION_VERBS) {
      int after = rest + verb.length();
      if (verb.charAt(0) == first
          && after <= sentence.length()
          && verb.contentEquals(lowerCase(sentence.subSequence(rest, after)))
          && (after == sentence.length() || sentence.charAt(after) == ' ')) {
        return Optional.of(verb);
      }
    }
    return Optional.empty();
  }

  private static boolean endsSentence(char c) {
    return c == '.' || c == '!' || c == ';' || c == '\n';
  }

  private static String lowerCase(CharSequence text) {
    return text.toString().toLowerCase(Locale.ROOT);
  }

  /** {@code text[from, to)} without leading and trailing white space. */
  private static CharSequence strip(CharSequence text, int from, int to) {
    int start = from;
    int end = to;
    while (start < end && Character.isWhitespace(text.charAt(start))) {
      start++;
    }
    while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    return text.subSequence(start, end);
  }

  private static RoutingDecision computer(String reason) {
    return new RoutingDecision(Route.COMPUTER, reason);
  }

  private static RoutingDecision direct(String reason) {
    return new RoutingDecision(Route.DIRECT, reason);
  }
}
