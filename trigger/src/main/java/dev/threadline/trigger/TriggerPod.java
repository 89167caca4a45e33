package dev.threadline.trigger;

/**
 * What the operator's CronJob Pod and the trigger image ({@link TriggerMain}) agree on: the command
 * line and the variables the Pod gets from the Downward API.
 */
public final class TriggerPod {
  /** Followed by the Schedule's name. */
  public static final String SCHEDULE_OPTION = "--schedule";

  /** The Pod's namespace ({@code metadata.namespace}): where its Schedule lives. */
  public static final String NAMESPACE_VARIABLE = "POD_NAMESPACE";

  /**
   * The name of the Job running the Pod ({@code metadata.labels['batch.kubernetes.io/job-name']}).
   * The CronJob controller names a firing's Job {@code <cronjob>-<scheduled time in epoch
   * minutes>}, so the name says which firing this is.
   */
  public static final String JOB_NAME_VARIABLE = "THREADLINE_TRIGGER_JOB_NAME";

  /** The label the Job controller puts on a Job's Pods. */
  public static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

  /** An explicit firing time (ISO 8601), overriding the Job name; for manual runs and tests. */
  public static final String FIRING_TIME_VARIABLE = "THREADLINE_FIRING_TIME";

  private TriggerPod() {}
}
