package dev.threadline.trigger;

/**
 * The trigger image's entry point: {@code --schedule <name>}, see {@link TriggerCommand}. A process
 * of its own, so that the runner, which agent code shares a Pod with, carries no Kubernetes client.
 */
public final class TriggerMain {
  /** The log configuration in this jar, used unless one is named on the command line. */
  static final String LOG_CONFIGURATION = "dev/threadline/trigger/logback.xml";

  private TriggerMain() {}

  public static void main(String[] args) {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", LOG_CONFIGURATION);
    }
    System.exit(TriggerCommand.fromEnvironment(System.err).execute(args));
  }
}
