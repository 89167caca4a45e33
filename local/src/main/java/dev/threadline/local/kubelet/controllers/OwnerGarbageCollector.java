package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.support.Describe;
import dev.threadline.local.kubelet.support.Owners;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The garbage collector a plain object store lacks: when an object is deleted, every object of a
 * watched kind whose {@code ownerReferences} name it is deleted too, which cascades. An object whose
 * owners are all gone (created after its owner was deleted, or left over from a crash) is deleted
 * when the collector sees it. An object that still has another living owner stays, as in
 * Kubernetes. Only the watched kinds are looked at: add Threadline's custom resources with {@link
 * #watch(Class)} before {@link #start()}. Deletion options (orphan, foreground) are not visible to
 * an observer and are not honoured: dependents are always deleted in the background.
 */
public final class OwnerGarbageCollector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OwnerGarbageCollector.class);

  /** The built-in kinds Threadline creates or owns. */
  public static final List<ResourceDefinitionContext> STANDARD_KINDS = List.of(
      kindOf(Pod.class), kindOf(Job.class), kindOf(CronJob.class), kindOf(ConfigMap.class), kindOf(Secret.class),
      kindOf(PersistentVolumeClaim.class), kindOf(NetworkPolicy.class));

  private final KubernetesClient client;
  private final List<ResourceDefinitionContext> kinds = new ArrayList<>();
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private final ExecutorService worker = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("owner-gc").daemon().factory());

  /** Watches {@link #STANDARD_KINDS}. */
  public OwnerGarbageCollector(KubernetesClient client) {
    this(client, STANDARD_KINDS);
  }

  public OwnerGarbageCollector(KubernetesClient client, Collection<ResourceDefinitionContext> kinds) {
    this.client = client;
    this.kinds.addAll(kinds);
  }

  public static ResourceDefinitionContext kindOf(Class<? extends HasMetadata> type) {
    return ResourceDefinitionContext.fromResourceType(type);
  }

  /** Adds a kind (a custom resource, say) to watch; call before {@link #start()}. */
  public synchronized OwnerGarbageCollector watch(Class<? extends HasMetadata> type) {
    return watch(kindOf(type));
  }

  public synchronized OwnerGarbageCollector watch(ResourceDefinitionContext kind) {
    if (!informers.isEmpty()) {
      throw new IllegalStateException("add kinds before start()");
    }
    kinds.add(kind);
    return this;
  }

  public synchronized void start() {
    for (ResourceDefinitionContext kind : kinds) {
      informers.add(client.genericKubernetesResources(kind).inAnyNamespace().inform(JobController.handler(
          object -> {
            if (hasOwners(object)) {
              submit(() -> deleteIfOrphaned(object));
            }
          },
          object -> submit(() -> deleteDependentsOf(object))), 0));
    }
    LOG.info("owner garbage collector started for {}", kinds.stream().map(ResourceDefinitionContext::getKind).toList());
  }

  @Override
  public synchronized void close() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void deleteDependentsOf(HasMetadata owner) {
    String uid = owner.getMetadata().getUid();
    String namespace = owner.getMetadata().getNamespace();
    for (ResourceDefinitionContext kind : kinds) {
      List<GenericKubernetesResource> candidates = kind.isNamespaceScoped() && namespace != null
          ? client.genericKubernetesResources(kind).inNamespace(namespace).list().getItems()
          : client.genericKubernetesResources(kind).inAnyNamespace().list().getItems();
      for (GenericKubernetesResource dependent : candidates) {
        if (Owners.isOwnedByUid(dependent, uid) && !hasLivingOwnerOtherThan(dependent, uid)) {
          LOG.info("{} deleted; deleting its dependent {}", Describe.of(owner), Describe.of(dependent));
          delete(kind, dependent);
        }
      }
    }
  }

  private void deleteIfOrphaned(GenericKubernetesResource object) {
    if (object.getMetadata().getDeletionTimestamp() == null && !hasLivingOwnerOtherThan(object, null)) {
      LOG.info("{} has no living owner; deleting it", Describe.of(object));
      kindFor(object.getApiVersion(), object.getKind()).ifPresent(kind -> delete(kind, object));
    }
  }

  /** Whether an owner (other than {@code excludedUid}) still exists; owners of kinds not watched are assumed to. */
  private boolean hasLivingOwnerOtherThan(HasMetadata object, String excludedUid) {
    for (OwnerReference reference : object.getMetadata().getOwnerReferences()) {
      if (reference.getUid().equals(excludedUid)) {
        continue;
      }
      Optional<ResourceDefinitionContext> kind = kindFor(reference.getApiVersion(), reference.getKind());
      if (kind.isEmpty()) {
        return true;
      }
      GenericKubernetesResource owner = kind.get().isNamespaceScoped()
          ? client.genericKubernetesResources(kind.get()).inNamespace(object.getMetadata().getNamespace())
              .withName(reference.getName()).get()
          : client.genericKubernetesResources(kind.get()).withName(reference.getName()).get();
      if (owner != null && reference.getUid().equals(owner.getMetadata().getUid())) {
        return true;
      }
    }
    return false;
  }

  private Optional<ResourceDefinitionContext> kindFor(String apiVersion, String kind) {
    String group = apiVersion == null || !apiVersion.contains("/") ? "" : apiVersion.substring(0, apiVersion.indexOf('/'));
    return kinds.stream()
        .filter(candidate -> candidate.getKind().equals(kind))
        .filter(candidate -> group.equals(candidate.getGroup() == null ? "" : candidate.getGroup()))
        .findFirst();
  }

  private void delete(ResourceDefinitionContext kind, HasMetadata object) {
    try {
      var resources = client.genericKubernetesResources(kind);
      var named = kind.isNamespaceScoped()
          ? resources.inNamespace(object.getMetadata().getNamespace()).withName(object.getMetadata().getName())
          : resources.withName(object.getMetadata().getName());
      named.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        LOG.warn("{} could not be deleted", Describe.of(object), e);
      }
    }
  }

  private static boolean hasOwners(HasMetadata object) {
    return object.getMetadata().getOwnerReferences() != null && !object.getMetadata().getOwnerReferences().isEmpty();
  }

  private void submit(Runnable task) {
    try {
      worker.execute(() -> {
        try {
          task.run();
        } catch (RuntimeException e) {
          if (!worker.isShutdown()) { // when closing, an interrupted step is expected
            LOG.warn("garbage collection step failed", e);
          }
        }
      });
    } catch (RejectedExecutionException e) {
      LOG.debug("collector closed; step dropped");
    }
  }
}
