package dev.threadline.crds.common;

import java.security.SecureRandom;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one mapping between REST ids ({@code thread_7f3k...}) and Kubernetes names ({@code
 * thread-7f3k...}). Kubernetes names cannot hold {@code _}, so a name is the id with its first
 * {@code _} turned into {@code -}, and back.
 */
public final class ResourceIds {
  /** Kubernetes' DNS-1123 subdomain rule, as far as our names go (lower case, digits, dashes). */
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,251}[a-z0-9])?");

  private static final Pattern ID =
      Pattern.compile("[a-z0-9]+_[a-z0-9]([-a-z0-9]{0,250}[a-z0-9])?");
  private static final char[] ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int RANDOM_LENGTH = 20;

  /**
   * The CEL rule, on a custom resource's root (rules on {@code metadata} itself are not allowed),
   * that its name maps to a REST id of its kind: {@code NAME_RULE_START + prefix + NAME_RULE_END}
   * holds for {@code env-demo} (the id {@code env_demo}) and not for {@code demo} or {@code
   * env--x}.
   */
  public static final String NAME_RULE_START = "self.metadata.name.matches('^";

  /** See {@link #NAME_RULE_START}. */
  public static final String NAME_RULE_END = "-[a-z0-9]([-a-z0-9]*[a-z0-9])?$')";

  /** What every name rule's message says after the kind's own part. */
  public static final String NAME_RULE_MESSAGE_END =
      "-, then lower-case letters, digits or dashes: the REST id with its first _ as -";

  private ResourceIds() {}

  /** A fresh id with the given prefix, e.g. {@code newId("thread")} → {@code thread_k3...}. */
  public static String newId(String prefix) {
    StringBuilder id =
        new StringBuilder(prefix.length() + 1 + RANDOM_LENGTH).append(prefix).append('_');
    for (int i = 0; i < RANDOM_LENGTH; i++) {
      id.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
    }
    return id.toString();
  }

  /** The Kubernetes name of a REST id, or empty when the id cannot name any resource. */
  public static Optional<String> toName(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      return Optional.empty();
    }
    int underscore = id.indexOf('_');
    return Optional.of(id.substring(0, underscore) + '-' + id.substring(underscore + 1));
  }

  /**
   * The Kubernetes name of a REST id that must carry the given prefix (e.g. {@code env}); empty
   * when it does not, so that an id of another kind is simply "not found".
   */
  public static Optional<String> toName(String id, String prefix) {
    if (id == null || !id.startsWith(prefix + "_")) {
      return Optional.empty();
    }
    return toName(id);
  }

  /** The REST id of a Kubernetes name: its first {@code -} becomes {@code _}. */
  public static String toId(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a Kubernetes name: " + name);
    }
    int dash = name.indexOf('-');
    return dash < 0 ? name : name.substring(0, dash) + '_' + name.substring(dash + 1);
  }

  /** The REST id of a name, or the name itself when it has none (e.g. in a trace attribute). */
  public static String toIdOrName(String name) {
    try {
      return toId(name);
    } catch (IllegalArgumentException e) {
      return name;
    }
  }

  /** Whether a string is a valid lower-case Kubernetes object name. */
  public static boolean isValidName(String name) {
    return name != null
        && NAME.matcher(name).matches()
        && name.equals(name.toLowerCase(Locale.ROOT));
  }
}
