package dev.threadline.trigger;

import dev.threadline.core.limits.ThreadLimit;
import dev.threadline.core.schedule.FiringNames;
import dev.threadline.core.schedule.Schedules;
import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code trigger --schedule <name>}: what a recurring Schedule's CronJob Pod runs. Reads the
 * Schedule in the Pod's namespace and creates the firing's Thread and first Run. Starting the same
 * firing twice creates one thread: the second start finds it and exits 0.
 *
 * <p>The client configures itself as every fabric8 client does: in a cluster from the Pod's
 * service-account token; in local mode from {@code KUBERNETES_MASTER}, which the process kubelet
 * sets for Pods that ask for a token. Output is for people, on stderr; stdout stays empty.
 */
public final class TriggerCommand {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  /** {@code service.name} of the trigger's spans. */
  static final String SERVICE_NAME = "threadline-trigger";

  /** Where Kubernetes mounts the Pod's namespace with its service-account token. */
  static final Path SERVICE_ACCOUNT_NAMESPACE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  private final Supplier<KubernetesClient> clients;
  private final Map<String, String> env;
  private final Clock clock;
  private final PrintStream err;

  TriggerCommand(
      Supplier<KubernetesClient> clients, Map<String, String> env, Clock clock, PrintStream err) {
    this.clients = clients;
    this.env = env;
    this.clock = clock;
    this.err = err;
  }

  /** As the Pod runs it: the environment's client, variables and clock. */
  public static TriggerCommand fromEnvironment(PrintStream err) {
    return new TriggerCommand(
        () -> ThreadlineClients.builder(SERVICE_NAME).build(),
        System.getenv(),
        Clock.systemUTC(),
        err);
  }

  public int execute(String[] args) {
    if (args.length != 2 || !TriggerPod.SCHEDULE_OPTION.equals(args[0]) || args[1].isBlank()) {
      err.println("usage: trigger --schedule <schedule name>");
      return USAGE;
    }
    String scheduleName = args[1];
    FiringTime.Resolved firingTime;
    int threadLimit;
    try {
      firingTime = FiringTime.resolve(scheduleName, env, clock);
      threadLimit = ThreadLimit.fromEnvironment(env);
    } catch (IllegalArgumentException e) {
      err.println("trigger: " + e.getMessage());
      return USAGE;
    }
    try (Telemetry telemetry = telemetry();
        KubernetesClient client = clients.get()) {
      Optional<String> namespace = namespace(client);
      if (namespace.isEmpty()) {
        err.println("trigger: cannot tell the namespace: set " + TriggerPod.NAMESPACE_VARIABLE);
        return FAILED;
      }
      String described = "Schedule(" + namespace.get() + "/" + scheduleName + ")";
      Schedule schedule =
          client
              .resources(Schedule.class)
              .inNamespace(namespace.get())
              .withName(scheduleName)
              .get();
      if (schedule == null) {
        err.println("trigger: " + described + " does not exist");
        return FAILED;
      }
      if (!Schedules.isEnabled(schedule)) {
        // Disabled after the CronJob had already started this firing: honour the newer wish.
        err.println("trigger: " + described + " is disabled; not firing");
        return OK;
      }
      String threadName = FiringNames.threadName(scheduleName, firingTime.instant());
      ScheduleFirer.Firing firing =
          new ScheduleFirer(client, threadLimit, telemetry.tracer())
              .fire(schedule, threadName, firingTime.instant());
      if (!FiringEvents.record(client, schedule, firing, firingTime.instant(), clock.instant())) {
        err.println("trigger: the firing's Event was not recorded (the API refused it)");
      }
      if (firing.isSkipped()) {
        // A failed Job shows in the CronJob's history; a retry may find room if threads were
        // deleted.
        err.println(
            "trigger: "
                + described
                + " firing of "
                + Timestamps.format(firingTime.instant())
                + " skipped: "
                + firing.skipped());
        return FAILED;
      }
      err.println(
          "trigger: "
              + described
              + " firing of "
              + Timestamps.format(firingTime.instant())
              + " (from "
              + firingTime.source()
              + "): "
              + (firing.created() ? "created thread " : "thread already exists, nothing to do: ")
              + firing.threadName()
              + " with run "
              + firing.runName());
      return OK;
    } catch (KubernetesClientException e) {
      err.println(
          "trigger: the Kubernetes API refused or failed (" + e.getCode() + "): " + e.getMessage());
      return FAILED;
    }
  }

  /**
   * Traces as the operator passed them on ({@code OTEL_*}, see {@link Telemetry#childEnvironment});
   * off when they are malformed: a firing never fails for its trace.
   */
  private Telemetry telemetry() {
    try {
      return Telemetry.fromEnvironment(SERVICE_NAME, env);
    } catch (IllegalArgumentException e) {
      err.println("trigger: no traces: " + e.getMessage());
      return Telemetry.off();
    }
  }

  private Optional<String> namespace(KubernetesClient client) {
    String fromEnv = env.get(TriggerPod.NAMESPACE_VARIABLE);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return Optional.of(fromEnv.strip());
    }
    try {
      if (Files.isReadable(SERVICE_ACCOUNT_NAMESPACE)) {
        return Optional.of(Files.readString(SERVICE_ACCOUNT_NAMESPACE).strip());
      }
    } catch (IOException unreadable) {
      // fall through to the client's own idea
    }
    return Optional.ofNullable(client.getNamespace());
  }
}
