package dev.threadline.api.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.api.errors.ApiException;
import dev.threadline.core.network.AllowedTargets;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.crds.webhook.WebhookEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookChangeTest {
  private static final WebhookTargets TARGETS = new WebhookTargets(AllowedTargets.PUBLIC);
  private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(new byte[24]);

  @Test
  void absentMeansLeaveAsIs() {
    assertThat(TARGETS.change(null, ConfiguredOn.AGENT)).isNull();
  }

  @Test
  void badItemsAre400sNamingTheField() {
    assertBad(ConfiguredOn.AGENT, "webhooks[0].url is required", item(null));
    assertBad(
        ConfiguredOn.AGENT,
        "webhooks[1].url must be an absolute http:// or https:// URL with a host",
        item("https://a.example/x"),
        item("ftp://a.example"));
    assertBad(
        ConfiguredOn.AGENT,
        "webhooks[0].url must be an absolute http:// or https:// URL with a host",
        item("/relative/path"));
    assertBad(
        ConfiguredOn.AGENT,
        "webhooks[0].url must be an absolute http:// or https:// URL with a host",
        item("HTTPS://a.example"));
    assertBad(
        ConfiguredOn.AGENT,
        "webhooks[0].url must be at most 2048 characters",
        item("https://a.example/" + "x".repeat(2048)));
    assertBad(
        ConfiguredOn.AGENT,
        "webhooks[1].url \"https://a.example/x\" is given twice",
        item("https://a.example/x"),
        item(" https://a.example/x "));
    assertBad(
        ConfiguredOn.SCHEDULE,
        "webhooks[0].events[2] must be one of run.completed, run.failed, run.cancelled,"
            + " run.approval_requested",
        new WebhookInput(
            "https://a.example", List.of("run.completed", "run.failed", "run.exploded"), null));
    assertBad(
        ConfiguredOn.AGENT,
        "webhooks[0].events[1] \"build.ready\" applies only to environments; "
            + "agents have run.completed, run.failed, run.cancelled, run.approval_requested",
        new WebhookInput("https://a.example", List.of("run.failed", "build.ready"), null));
    assertBad(
        ConfiguredOn.ENVIRONMENT,
        "webhooks[0].events[1] \"run.failed\" is given twice",
        new WebhookInput("https://a.example", List.of("run.failed", "run.failed"), null));
    String secretRule =
        "webhooks[0].secret must be whsec_ followed by the base64 of at least 24 bytes";
    assertBad(
        ConfiguredOn.AGENT, secretRule, new WebhookInput("https://a.example", null, "s3cret"));
    assertBad(
        ConfiguredOn.AGENT,
        secretRule,
        new WebhookInput("https://a.example", null, "whsec_not base64!"));
    assertBad(
        ConfiguredOn.AGENT,
        secretRule,
        new WebhookInput(
            "https://a.example",
            null,
            "whsec_" + Base64.getEncoder().encodeToString(new byte[23])));
    assertBad(ConfiguredOn.AGENT, "webhooks[0] must be an object", (WebhookInput) null);
    WebhookInput[] eleven = new WebhookInput[11];
    Arrays.setAll(eleven, i -> item("https://a.example/" + i));
    assertBad(ConfiguredOn.AGENT, "webhooks may hold at most 10 items", eleven);
  }

  @Test
  void aListElsewhereInTheBodyIsNamedByItsPath() {
    WebhookInput[] eleven = new WebhookInput[11];
    Arrays.setAll(eleven, i -> item("https://a.example/" + i));
    assertThatThrownBy(
            () -> TARGETS.change(List.of(eleven), ConfiguredOn.SCHEDULE, "schedule.webhooks"))
        .hasMessage("schedule.webhooks may hold at most 10 items");
    assertThatThrownBy(() ->
            TARGETS.change(
                List.of(item("https://a.example"), item("mailto:x@example.com")),
                ConfiguredOn.SCHEDULE,
                "schedule.webhooks"))
        .hasMessage(
            "schedule.webhooks[1].url must be an absolute http:// or https:// URL with a host");
    assertThatThrownBy(() ->
            TARGETS.change(
                List.of(new WebhookInput("https://a.example", List.of("build.ready"), null)),
                ConfiguredOn.SCHEDULE,
                "schedule.webhooks"))
        .hasMessage(
            "schedule.webhooks[0].events[0] \"build.ready\" applies only to environments; schedules"
                + " have run.completed, run.failed, run.cancelled, run.approval_requested");
  }

  @Test
  void buildEventsAreForEnvironments() {
    WebhookChange change =
        TARGETS.change(
            List.of(
                new WebhookInput(
                    "https://a.example",
                    List.of("build.ready", "build.failed", "run.completed"),
                    SECRET)),
            ConfiguredOn.ENVIRONMENT);

    WebhookChange.Resolved resolved = change.resolve("env-a", List.of(), Map.of());

    assertThat(resolved.endpoints().getFirst().getEvents())
        .containsExactly(
            WebhookEvent.BUILD_READY, WebhookEvent.BUILD_FAILED, WebhookEvent.RUN_COMPLETED);
  }

  @Test
  void newUrlsGetAGeneratedSecretGivenOnesAreStoredAndNeitherIsInTheSpec() {
    WebhookChange change =
        TARGETS.change(
            List.of(
                item("https://a.example/gen"),
                new WebhookInput("https://a.example/given", List.of(), SECRET)),
            ConfiguredOn.AGENT);

    WebhookChange.Resolved resolved = change.resolve("agent-a", List.of(), Map.of());

    String generatedKey = WebhookSecrets.keyOf("https://a.example/gen");
    String givenKey = WebhookSecrets.keyOf("https://a.example/given");
    assertThat(generatedKey).matches("wh-[0-9a-f]{16}");
    assertThat(resolved.endpoints())
        .extracting(endpoint -> endpoint.getSecretRef().getName())
        .containsOnly("agent-a-webhooks");
    assertThat(resolved.endpoints())
        .extracting(endpoint -> endpoint.getSecretRef().getKey())
        .containsExactly(generatedKey, givenKey);
    String generated = resolved.generated().get("https://a.example/gen");
    assertThat(generated).startsWith("whsec_");
    assertThat(Base64.getDecoder().decode(generated.substring(6))).hasSize(32);
    assertThat(resolved.generated()).containsOnlyKeys("https://a.example/gen");
    assertThat(resolved.secretData())
        .containsExactlyInAnyOrderEntriesOf(Map.of(generatedKey, generated, givenKey, SECRET));
    assertThat(resolved.secretChanged()).isTrue();
  }

  @Test
  void keptUrlsCarryTheirSecretRemovedOnesAreDroppedAndForeignReferencesStay() {
    String keptKey = WebhookSecrets.keyOf("https://a.example/kept");
    String goneKey = WebhookSecrets.keyOf("https://a.example/gone");
    List<WebhookEndpoint> current =
        List.of(
            new WebhookEndpoint(
                "https://a.example/kept",
                List.of(),
                new SecretKeyReference("agent-a-webhooks", keptKey)),
            new WebhookEndpoint(
                "https://a.example/gone",
                List.of(),
                new SecretKeyReference("agent-a-webhooks", goneKey)),
            new WebhookEndpoint(
                "https://gitops.example", List.of(), new SecretKeyReference("my-signing", "key")));
    Map<String, String> stored = Map.of(keptKey, "whsec_kept", goneKey, "whsec_gone");
    WebhookChange change =
        TARGETS.change(
            List.of(
                new WebhookInput("https://a.example/kept", List.of("run.failed"), null),
                item("https://gitops.example")),
            ConfiguredOn.AGENT);

    WebhookChange.Resolved resolved = change.resolve("agent-a", current, stored);

    assertThat(resolved.generated()).isEmpty();
    assertThat(resolved.secretData()).isEqualTo(Map.of(keptKey, "whsec_kept"));
    assertThat(resolved.endpoints().get(0).getEvents()).containsExactly(WebhookEvent.RUN_FAILED);
    assertThat(resolved.endpoints().get(1).getSecretRef().getName()).isEqualTo("my-signing");
    assertThat(resolved.endpoints().get(1).getSecretRef().getKey()).isEqualTo("key");
    assertThat(resolved.secretChanged()).isTrue();
    assertThat(
            TARGETS
                .change(List.of(item("https://a.example/kept")), ConfiguredOn.AGENT)
                .resolve("agent-a", current.subList(0, 1), Map.of(keptKey, "whsec_kept"))
                .secretChanged())
        .isFalse();
  }

  @Test
  void anEmptyListRemovesEverything() {
    WebhookChange.Resolved resolved =
        TARGETS
            .change(List.of(), ConfiguredOn.SCHEDULE)
            .resolve(
                "sched-a",
                List.of(
                    new WebhookEndpoint(
                        "https://a.example",
                        List.of(),
                        new SecretKeyReference("sched-a-webhooks", "wh-0123456789abcdef"))),
                Map.of("wh-0123456789abcdef", "x"));

    assertThat(resolved.endpoints()).isEmpty();
    assertThat(resolved.secretData()).isEmpty();
    assertThat(resolved.secretChanged()).isTrue();
  }

  @Test
  void byDefaultEveryFormOfALoopbackOrPrivateAddressIsRefused() {
    for (String url :
        List.of(
            "http://127.0.0.1:9/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::127.0.0.1]/",
            "http://[::1]/",
            "http://localhost/",
            "http://a.localhost/",
            "http://10.0.0.1/",
            "http://[fd00::1]/",
            "http://169.254.169.254/",
            "http://0.0.0.0/")) {
      assertThatThrownBy(() -> TARGETS.change(List.of(item(url)), ConfiguredOn.AGENT))
          .as(url)
          .isInstanceOf(ApiException.class)
          .hasMessageStartingWith("webhooks[0].url must not point at ");
    }
    assertThat(TARGETS.change(List.of(item("https://hooks.example/x")), ConfiguredOn.AGENT))
        .isNotNull();
  }

  @Test
  void privateAllowsPrivateNetworksButNeverTheMetadataAddress() {
    WebhookTargets permissive = new WebhookTargets(AllowedTargets.PRIVATE);
    assertThat(permissive.change(List.of(item("http://10.0.0.1/")), ConfiguredOn.AGENT))
        .isNotNull();
    assertThatThrownBy(
            () -> permissive.change(List.of(item("http://169.254.169.254/")), ConfiguredOn.AGENT))
        .hasMessageContaining("link-local");
  }

  private static WebhookInput item(String url) {
    return new WebhookInput(url, null, null);
  }

  private static void assertBad(ConfiguredOn on, String message, WebhookInput... items) {
    List<WebhookInput> inputs = new ArrayList<>();
    Collections.addAll(inputs, items);
    assertThatThrownBy(() -> TARGETS.change(inputs, on))
        .isInstanceOf(ApiException.class)
        .hasMessage(message);
  }
}
