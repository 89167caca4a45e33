package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerExpiry;
import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerPhase;
import dev.threadline.crds.container.ContainerStatus;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentStartException;
import dev.threadline.operator.computer.QuotaWait;
import dev.threadline.operator.computer.WorkspaceClaim;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import dev.threadline.operator.network.NetworkPolicies;
import dev.threadline.operator.sandbox.SandboxPorts;
import dev.threadline.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a Container's Pod serving its file API, and deletes an ephemeral Container once it has gone
 * {@code timeoutMs} without use. Expiry is a scheduled reconcile at the expiry instant, not a
 * polling loop: the reconcile then re-reads {@code lastActivityAt} (which the api-server moves on
 * every use) and either deletes the Container or sleeps until the new expiry.
 *
 * <p>Objects: an access-token Secret, the Pod, and for a persistent Container a workspace claim —
 * all owned by the Container (deleted with it) and named after it, created if absent, so a
 * restarted operator makes nothing twice. A Pod that disappears is made again; a persistent
 * Container's Pod that ended is replaced (the claim keeps the workspace), an ephemeral one's is
 * reported failed.
 */
@ControllerConfiguration(name = "container")
public class ContainerReconciler implements Reconciler<Container> {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerReconciler.class);

  /** Never wake up sooner than this: a clock a little behind must not make a busy loop. */
  private static final Duration MIN_WAKE_UP = Duration.ofMillis(500);

  /** How soon a container that found no free port looks again. */
  private static final Duration PORT_RETRY = Duration.ofSeconds(10);

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final SandboxPorts ports;
  private final ContainerStatusWriter writer;
  private final Conditions conditions;
  private final Clock clock;

  public ContainerReconciler(
      KubernetesClient client, OperatorSettings settings, Conditions conditions, Clock clock) {
    this.client = client;
    this.settings = settings;
    this.ports = new SandboxPorts(settings.containers());
    this.writer = new ContainerStatusWriter(client);
    this.conditions = conditions;
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, Container>> prepareEventSources(
      EventSourceContext<Container> context) {
    var pods =
        InformerEventSourceConfiguration.from(Pod.class, Container.class)
            .withName("container-pods")
            .withLabelSelector(ContainerPod.podSelector())
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Container.class))
            .withNamespacesInheritedFromController()
            .build();
    return List.of(new InformerEventSource<>(pods, context));
  }

  @Override
  public UpdateControl<Container> reconcile(Container container, Context<Container> context) {
    if (container.getMetadata().getDeletionTimestamp() != null) {
      return UpdateControl.noUpdate();
    }
    Instant now = clock.instant();
    Optional<Duration> remaining = ContainerExpiry.remaining(container, now);
    if (remaining.isPresent() && !remaining.get().isPositive()) {
      expire(container);
      return UpdateControl.noUpdate();
    }

    Optional<Container> prepared = assignPortAndActivity(container, context);
    if (prepared.isEmpty()) {
      return UpdateControl.noUpdate(); // deleted meanwhile
    }
    Container current = prepared.get();
    ContainerState state;
    String image = null;
    Optional<Pod> pod = Optional.empty();
    Optional<Duration> quotaRetry = Optional.empty();
    if (current.getStatus().getPort() == null) {
      state =
          new ContainerState(
              ContainerPhase.FAILED,
              "no free port in " + settings.containers().range() + " for the file API");
    } else {
      try {
        AgentEnvironment environment =
            AgentEnvironment.resolve(
                client,
                current.getMetadata().getNamespace(),
                current.getSpec().getEnvironment(),
                settings.registry(),
                settings.runnerImage());
        image = environment.image();
        pod = ensureObjects(current, context, environment);
        state = ContainerState.of(pod);
      } catch (AgentStartException e) {
        state = new ContainerState(ContainerPhase.FAILED, e.getMessage());
      } catch (KubernetesClientException e) {
        String refusal = QuotaWait.refusal(e).orElseThrow(() -> e);
        // Until it expires, the container waits for room, as a run does.
        state =
            new ContainerState(
                ContainerPhase.PENDING, "waiting for room in the namespace's quota: " + refusal);
        quotaRetry =
            Optional.of(
                QuotaWait.nextRetry(
                    Duration.between(
                        Timestamps.parse(current.getMetadata().getCreationTimestamp()).orElse(now),
                        now)));
      }
    }
    recordState(current, context, state, pod, image);
    // Without a port, or refused by a quota, nothing else would bring another reconcile: try later.
    Optional<Duration> wakeUp =
        current.getStatus().getPort() == null ? Optional.of(PORT_RETRY) : quotaRetry;
    Optional<Duration> next =
        remaining
            .map(left -> max(left, MIN_WAKE_UP))
            .map(left -> wakeUp.map(retry -> left.compareTo(retry) < 0 ? left : retry).orElse(left))
            .or(() -> wakeUp);
    return next.map(delay -> UpdateControl.<Container>noUpdate().rescheduleAfter(delay))
        .orElseGet(UpdateControl::noUpdate);
  }

  private void expire(Container container) {
    LOG.info(
        "Container({}/{}) unused for {} ms: deleting it",
        container.getMetadata().getNamespace(),
        container.getMetadata().getName(),
        container.getSpec().getTimeoutMs());
    // The Pod, its Secret and claim are owned by the Container: garbage-collected with it.
    client.resource(container).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
  }

  /** The port first (before the Pod that listens on it), and the first activity at creation. */
  private Optional<Container> assignPortAndActivity(
      Container container, Context<Container> context) {
    String key = container.getMetadata().getNamespace() + "/" + container.getMetadata().getName();
    Integer recorded = container.getStatus() == null ? null : container.getStatus().getPort();
    Integer port = recorded;
    if (recorded == null) {
      Map<String, Integer> held = new HashMap<>();
      context
          .getPrimaryCache()
          .list()
          .forEach(other ->
              held.put(
                  other.getMetadata().getNamespace() + "/" + other.getMetadata().getName(),
                  other.getStatus() == null ? null : other.getStatus().getPort()));
      port = ports.allocate(key, held).orElse(null);
    }
    Integer chosen = port;
    String created = Timestamps.normalize(container.getMetadata().getCreationTimestamp());
    return writer
        .write(
            container,
            context,
            status -> {
              boolean changed = false;
              if (status.getPort() == null && chosen != null) {
                status.setPort(chosen);
                changed = true;
              }
              if (status.getLastActivityAt() == null && created != null) {
                status.setLastActivityAt(created);
                changed = true;
              }
              return changed;
            })
        .map(written -> {
          if (written.getStatus() == null) {
            written.setStatus(new ContainerStatus());
          }
          return written;
        });
  }

  private Optional<Pod> ensureObjects(
      Container container, Context<Container> context, AgentEnvironment environment) {
    String image = environment.image();
    IdempotentCreate.createOrGet(client, ContainerAccessSecret.of(container));
    // Before the Pod, so that it never listens unprotected.
    NetworkPolicies.ensure(
        client,
        ContainerNetworkPolicy.of(
            container,
            container.getStatus().getPort(),
            environment.internetAccess(),
            settings.containers(),
            settings.network()));
    if (Boolean.TRUE.equals(container.getSpec().getPersistent())) {
      IdempotentCreate.createOrGet(
          client,
          WorkspaceClaim.of(
              ContainerObjects.workspaceClaimName(container.getMetadata().getName()),
              container,
              ContainerPod.labels(container, "workspace"),
              settings.agentPod()));
    }
    Optional<Pod> pod = context.getSecondaryResource(Pod.class);
    if (pod.isPresent()
        && hasEnded(pod.get())
        && Boolean.TRUE.equals(container.getSpec().getPersistent())) {
      LOG.info(
          "Container({}/{}) Pod ended ({}); replacing it",
          container.getMetadata().getNamespace(),
          container.getMetadata().getName(),
          pod.get().getStatus().getPhase());
      client.resource(pod.get()).delete();
      return Optional
          .empty(); // its deletion event brings the next reconcile, which makes the new one
    }
    if (pod.isEmpty()) {
      Pod made =
          IdempotentCreate.createOrGet(
              client,
              new ContainerPod(
                      container,
                      image,
                      container.getStatus().getPort(),
                      settings.containers().bindAddress(),
                      settings.agentPod())
                  .build());
      if (!stillExists(container)) {
        // Deleted while this reconcile ran from a cached copy: the garbage collector had nothing of
        // ours to take yet, so take back what was just made.
        LOG.info(
            "Container({}/{}) was deleted meanwhile; removing its new objects",
            container.getMetadata().getNamespace(),
            container.getMetadata().getName());
        client.resource(made).delete();
        client.resource(ContainerAccessSecret.of(container)).delete();
        client
            .network()
            .v1()
            .networkPolicies()
            .inNamespace(container.getMetadata().getNamespace())
            .withName(ContainerObjects.networkPolicyName(container.getMetadata().getName()))
            .delete();
        client
            .persistentVolumeClaims()
            .inNamespace(container.getMetadata().getNamespace())
            .withName(ContainerObjects.workspaceClaimName(container.getMetadata().getName()))
            .delete();
        return Optional.empty();
      }
      LOG.info(
          "Container({}/{}) Pod {} made with image {}, file API on port {}",
          container.getMetadata().getNamespace(),
          container.getMetadata().getName(),
          made.getMetadata().getName(),
          image,
          container.getStatus().getPort());
      return Optional.of(made);
    }
    return pod;
  }

  private void recordState(
      Container container,
      Context<Container> context,
      ContainerState state,
      Optional<Pod> pod,
      String image) {
    String podIP = pod.map(Pod::getStatus).map(PodStatus::getPodIP).orElse(null);
    String podName = pod.map(p -> p.getMetadata().getName()).orElse(null);
    Long generation = container.getMetadata().getGeneration();
    boolean ready = state.phase() == ContainerPhase.RUNNING;
    writer.write(
        container,
        context,
        status -> {
          boolean changed =
              !Objects.equals(status.getPhase(), state.phase().value())
                  || !Objects.equals(status.getMessage(), state.message())
                  || !Objects.equals(status.getPod(), podName)
                  || !Objects.equals(status.getPodIP(), podIP)
                  || (image != null && !Objects.equals(status.getImage(), image))
                  || !Objects.equals(status.getObservedGeneration(), generation);
          if (!changed) {
            return false;
          }
          if (!Objects.equals(status.getPhase(), state.phase().value())) {
            LOG.info(
                "Container({}/{}) {}{}",
                container.getMetadata().getNamespace(),
                container.getMetadata().getName(),
                state.phase().value(),
                state.message() == null ? "" : " (" + state.message() + ")");
          }
          status.setPhase(state.phase().value());
          status.setMessage(state.message());
          status.setPod(podName);
          status.setPodIP(podIP);
          if (image != null) {
            status.setImage(image);
          }
          status.setObservedGeneration(generation);
          status.setConditions(
              conditions.set(
                  status.getConditions(),
                  Conditions.READY,
                  ready ? Conditions.TRUE : Conditions.FALSE,
                  ready ? "Running" : capitalized(state.phase().value()),
                  state.message(),
                  generation));
          return true;
        });
  }

  private boolean stillExists(Container container) {
    Container live =
        client
            .resources(Container.class)
            .inNamespace(container.getMetadata().getNamespace())
            .withName(container.getMetadata().getName())
            .get();
    return live != null
        && live.getMetadata().getDeletionTimestamp() == null
        && Objects.equals(live.getMetadata().getUid(), container.getMetadata().getUid());
  }

  private static boolean hasEnded(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static String capitalized(String value) {
    return Character.toUpperCase(value.charAt(0)) + value.substring(1);
  }
}
