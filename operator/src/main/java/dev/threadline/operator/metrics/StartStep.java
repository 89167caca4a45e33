package dev.threadline.operator.metrics;

/**
 * The steps of a computer run's start that are timed one by one ({@link StartSteps}), in the order
 * a claimed start takes them: the operator's routing, the hand-off, the worker's start.
 */
public enum StartStep {
  ENVIRONMENT("environment", "routing: the run's thread and environment read"),
  ARCHIVE_CHECK("archive-check", "routing: whether a pool sandbox can carry the thread's files"),
  GUARD("guard", "routing: the run's credential Secret and NetworkPolicy (its workflow)"),
  POD_CLAIM("pod-claim", "routing: the conditional update that claims the pool Pod"),
  ROUTE_WRITE("route-write", "routing: route, `started` and Pod in one status write"),
  HAND_OFF("hand-off", "hand-off: the operator's write → the worker considers the run"),
  RUN_CLAIM("run-claim", "worker: its claim annotation on the Run"),
  TASK("task", "worker: the task read (agent, thread, environment, MCP servers)"),
  MEMORY("memory", "worker: the run's memory read"),
  BIND_READS("bind-reads", "worker: the pool credential and the environment's values read"),
  BIND_VERIFY("bind-verify", "worker: the sandbox proves the credential it holds (HTTP)"),
  BIND_POST("bind-post", "worker: `POST /bind` to the pool sandbox (HTTP)"),
  BIND("bind", "worker: the sandbox reached, proved and bound, in all"),
  RESTORE("restore", "worker: the thread's workspace archive read and restored"),
  FIRST_EVENT("first-event", "worker: its claim → its `started` event, in all");

  private final String label;
  private final String description;

  StartStep(String label, String description) {
    this.label = label;
    this.description = description;
  }

  /** The meter's {@code step} label. */
  public String label() {
    return label;
  }

  /** What the step does, for the benchmark's table. */
  public String description() {
    return description;
  }
}
