package dev.threadline.operator.webhooks;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.operator.kubernetes.StatusFieldPatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queues build.ready and build.failed for every build that ends, once per build: a WebhookDelivery
 * per endpoint of the Environment that wants the event, then {@code status.webhooksQueuedFor =
 * buildHash@lastBuildAt}. Builds that ended more than a day ago are only marked.
 *
 * <p>Its own controller, so that it sees status changes; the environment controller writes the
 * build status and this one only its own field.
 */
@ControllerConfiguration(name = "build-webhooks", generationAwareEventProcessing = false)
public class BuildWebhooks implements Reconciler<Environment> {
  private static final Logger LOG = LoggerFactory.getLogger(BuildWebhooks.class);

  private final KubernetesClient client;
  private final WebhookDeliveries deliveries;
  private final Clock clock;

  public BuildWebhooks(KubernetesClient client, Clock clock) {
    this.client = client;
    this.deliveries = new WebhookDeliveries(client);
    this.clock = clock;
  }

  @Override
  public UpdateControl<Environment> reconcile(
      Environment environment, Context<Environment> context) {
    EnvironmentStatus status = environment.getStatus();
    Optional<WebhookEvent> event = WebhookEvents.ofBuild(status);
    if (event.isEmpty()) {
      return UpdateControl.noUpdate();
    }
    String occurrence = WebhookEvents.buildOccurrence(status);
    if (occurrence.equals(status.getWebhooksQueuedFor())) {
      return UpdateControl.noUpdate();
    }
    Optional<Instant> endedAt = Timestamps.parse(status.getLastBuildAt());
    if (WebhookEvents.isTooOld(endedAt, clock.instant())) {
      LOG.debug("build {} ended too long ago to announce", occurrence);
    } else {
      Instant at = endedAt.orElseGet(clock::instant);
      deliveries.create(
          WebhookDeliveries.plan(
              environment,
              event.get(),
              occurrence,
              at,
              WebhookEvents.buildData(environment),
              WebhookEvents.buildRecipients(event.get(), environment)));
    }
    markQueued(environment, occurrence);
    return UpdateControl.noUpdate();
  }

  /** Other Environment controllers keep this field in their status writes (one merge patch). */
  private void markQueued(Environment environment, String occurrence) {
    StatusFieldPatch.patch(client, environment, "webhooksQueuedFor", occurrence);
  }
}
