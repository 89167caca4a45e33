package dev.threadline.operator.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.schedule.CronSchedule;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The trigger Pod exports its firing span where the operator's spans go, or nowhere. */
class ScheduleCronJobTest {
  private static final CronSchedule DAILY = CronSchedule.parse("0 9 * * *", "UTC");

  @Test
  void theTriggerPodGetsTheOperatorsTraceExport() {
    CronJob cronJob =
        new ScheduleCronJob(
                "trigger:1", 5, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"))
            .desired(schedule(), DAILY);

    assertThat(env(cronJob))
        .contains(new EnvVar("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", null));
  }

  @Test
  void withoutTracesThePodGetsNoTelemetryVariable() {
    CronJob cronJob = new ScheduleCronJob("trigger:1", 5, Map.of()).desired(schedule(), DAILY);

    assertThat(env(cronJob))
        .extracting(EnvVar::getName)
        .noneMatch(name -> name.startsWith("OTEL_"));
  }

  private static List<EnvVar> env(CronJob cronJob) {
    return cronJob
        .getSpec()
        .getJobTemplate()
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .get(0)
        .getEnv();
  }

  private static Schedule schedule() {
    Schedule schedule = new Schedule();
    schedule.setMetadata(
        new ObjectMetaBuilder().withName("sched-daily").withNamespace("ns").withUid("u1").build());
    ScheduleSpec spec = new ScheduleSpec();
    spec.setTask("Hello!");
    spec.setScheduleType(Schedule.RECURRING);
    spec.setCronExpression("0 9 * * *");
    schedule.setSpec(spec);
    return schedule;
  }
}
