package dev.threadline.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.image.ImageInputs;
import dev.threadline.crds.common.ThreadlineGroup;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trigger as its image runs it: {@code java -cp target/image/lib/*} and the main class, in a
 * process with an empty environment but PATH and HOME, against an HTTPS API server (TLS,
 * java.net.http, fabric8's auto-configuration, the log configuration in the jar).
 */
class TriggerMainIT {
  @TempDir Path dir;

  @Test
  void readsItsScheduleOverTlsAndHonoursItsDisabling() throws Exception {
    KubernetesMockServer server = new KubernetesMockServer(true);
    server.init();
    try {
      server
          .expect()
          .get()
          .withPath("/apis/" + ThreadlineGroup.API_VERSION + "/namespaces/team-a/schedules/nightly")
          .andReturn(200, disabledSchedule("team-a", "nightly"))
          .once();

      Process trigger =
          start(
              Map.of(
                  "KUBERNETES_MASTER", server.url("/"),
                  "KUBERNETES_TRUST_CERTIFICATES", "true",
                  "KUBERNETES_AUTH_TRYKUBECONFIG", "false",
                  "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false",
                  "POD_NAMESPACE", "team-a"),
              TriggerPod.SCHEDULE_OPTION,
              "nightly");

      assertThat(server.url("/")).startsWith("https://");
      String stderr = Files.readString(dir.resolve("stderr"));
      assertThat(trigger.exitValue()).as(stderr).isZero();
      assertThat(stderr).contains("Schedule(team-a/nightly) is disabled; not firing");
      assertThat(Files.readString(dir.resolve("stdout"))).isEmpty();
    } finally {
      server.destroy();
    }
  }

  private static Schedule disabledSchedule(String namespace, String name) {
    Schedule schedule = new Schedule();
    schedule.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    ScheduleSpec spec = new ScheduleSpec();
    spec.setDisplayName("Nightly");
    spec.setTask("Summarise the day.");
    spec.setScheduleType(Schedule.RECURRING);
    spec.setCronExpression("0 2 * * *");
    spec.setAgent("agent-helper");
    spec.setEnvironment("env-main");
    spec.setEnabled(false);
    schedule.setSpec(spec);
    return schedule;
  }

  private Process start(Map<String, String> env, String... args) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    String classPath = ImageInputs.module().resolve(ImageInputs.LAYOUT + "/lib/*").toString();
    List<String> command =
        new ArrayList<>(List.of(java, "-cp", classPath, TriggerMain.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().clear();
    builder.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", dir.toString()));
    builder.environment().putAll(env);
    Process process =
        builder
            .redirectOutput(dir.resolve("stdout").toFile())
            .redirectError(dir.resolve("stderr").toFile())
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the trigger did not end in 60 s");
    }
    return process;
  }
}
