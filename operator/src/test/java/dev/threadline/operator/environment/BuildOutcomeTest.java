package dev.threadline.operator.environment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import org.junit.jupiter.api.Test;

/** How a finished Job and its log become buildStatus and buildError. */
class BuildOutcomeTest {
  @Test
  void readsTheJobControllersConditions() {
    assertThat(BuildJobState.of(new JobBuilder().build())).isEqualTo(BuildJobState.RUNNING);
    assertThat(BuildJobState.of(job("Complete", null))).isEqualTo(BuildJobState.SUCCEEDED);
    assertThat(BuildJobState.of(job("Failed", "BackoffLimitExceeded")))
        .isEqualTo(BuildJobState.FAILED);
    assertThat(BuildJobState.of(job("Failed", "DeadlineExceeded")))
        .isEqualTo(BuildJobState.TIMED_OUT);
    assertThat(BuildJobState.of(new JobBuilder().withNewStatus().withFailed(1).endStatus().build()))
        .isEqualTo(BuildJobState.FAILED);
  }

  @Test
  void classifiesKnownCausesAndOtherwiseQuotesTheLogsLastLines() {
    assertThat(
            EnvironmentReconciler.failureMessage(
                "error parsing dockerfile: bad", BuildJobState.FAILED))
        .isEqualTo("Dockerfile syntax error");
    assertThat(EnvironmentReconciler.failureMessage("anything", BuildJobState.TIMED_OUT))
        .isEqualTo("Build timeout");
    assertThat(EnvironmentReconciler.failureMessage("1\n2\n\n3\n4\n5\n6\n", BuildJobState.FAILED))
        .isEqualTo("2\n3\n4\n5\n6");
    assertThat(EnvironmentReconciler.failureMessage("", BuildJobState.FAILED))
        .isEqualTo("The build failed without a log");
  }

  private static Job job(String condition, String reason) {
    return new JobBuilder()
        .withNewStatus()
        .withConditions(
            new JobConditionBuilder()
                .withType(condition)
                .withStatus("True")
                .withReason(reason)
                .build())
        .endStatus()
        .build();
  }
}
