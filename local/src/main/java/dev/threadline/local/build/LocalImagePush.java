package dev.threadline.local.build;

import java.io.PrintStream;
import java.util.List;

/**
 * What local mode runs in place of the image pusher of an image build ({@code crane push <tarball>
 * <reference> …}): nothing is built here, so nothing is pushed; the log says what would have been.
 * It reports no digest, so sandbox Pods refer to the image by its tag, as the local kubelet
 * expects.
 */
public final class LocalImagePush {
  static final String NOTHING_PUSHED =
      "INFO[0000] Nothing was pushed: in local mode agent runs use this host's tools,"
          + " not an environment image.";

  private LocalImagePush() {}

  public static void main(String[] args) {
    System.exit(run(List.of(args), System.out));
  }

  static int run(List<String> args, PrintStream log) {
    List<String> operands = args.stream().filter(arg -> !arg.startsWith("-")).toList();
    if (operands.size() != 3 || !operands.get(0).equals("push")) {
      log.println("Error: expected push <tarball> <reference>, got: " + String.join(" ", args));
      return LocalImageBuild.FAILED;
    }
    log.println("INFO[0000] Would push " + operands.get(2) + " from " + operands.get(1));
    log.println(NOTHING_PUSHED);
    return LocalImageBuild.OK;
  }
}
