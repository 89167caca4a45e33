package dev.threadline.local.build;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of Kaniko's command line that local mode understands: {@code --dockerfile}, {@code
 * --context}, {@code --destination} (repeatable), {@code --cache}, {@code --cache-repo}, {@code
 * --no-push} and {@code --tar-path}, each as {@code --flag=value} or {@code --flag value}. Other
 * flags are kept, to be named in the log as ignored.
 */
record KanikoArguments(
    String dockerfile,
    String context,
    List<String> destinations,
    boolean cache,
    String cacheRepository,
    boolean noPush,
    String tarPath,
    List<String> ignored) {

  static final String DEFAULT_DOCKERFILE = "Dockerfile";
  static final String DEFAULT_CONTEXT = "/workspace/";

  KanikoArguments {
    destinations = List.copyOf(destinations);
    ignored = List.copyOf(ignored);
  }

  /**
   * @throws IllegalArgumentException when a flag that takes a value has none
   */
  static KanikoArguments parse(List<String> args) {
    String dockerfile = DEFAULT_DOCKERFILE;
    String context = DEFAULT_CONTEXT;
    List<String> destinations = new ArrayList<>();
    boolean cache = false;
    String cacheRepository = null;
    boolean noPush = false;
    String tarPath = null;
    List<String> ignored = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      int equals = arg.indexOf('=');
      String flag = equals > 0 ? arg.substring(0, equals) : arg;
      String inline = equals > 0 ? arg.substring(equals + 1) : null;
      switch (flag) {
        case "--dockerfile", "-f" -> dockerfile = inline != null ? inline : value(args, ++i, flag);
        case "--context", "-c" -> context = inline != null ? inline : value(args, ++i, flag);
        case "--destination", "-d" ->
            destinations.add(inline != null ? inline : value(args, ++i, flag));
        case "--cache-repo" -> cacheRepository = inline != null ? inline : value(args, ++i, flag);
        case "--cache" -> cache = inline == null || Boolean.parseBoolean(inline);
        case "--no-push" -> noPush = inline == null || Boolean.parseBoolean(inline);
        case "--tar-path" -> tarPath = inline != null ? inline : value(args, ++i, flag);
        default -> ignored.add(arg);
      }
    }
    return new KanikoArguments(
        dockerfile, context, destinations, cache, cacheRepository, noPush, tarPath, ignored);
  }

  /** The context directory, without Kaniko's {@code dir://} prefix. */
  String contextDirectory() {
    return context.startsWith("dir://") ? context.substring("dir://".length()) : context;
  }

  private static String value(List<String> args, int index, String flag) {
    if (index >= args.size()) {
      throw new IllegalArgumentException("flag needs an argument: " + flag);
    }
    return args.get(index);
  }
}
