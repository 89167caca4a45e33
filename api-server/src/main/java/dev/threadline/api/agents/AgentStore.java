package dev.threadline.api.agents;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.agent.Agent;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agent resources: reads from the informer cache, writes through the Kubernetes API. After a
 * write it waits (bounded) until the cache reflects it, so this replica's next read sees the
 * write; callers answer with the object the API server returned, never the cache's.
 */
final class AgentStore {
  private static final Logger log = LoggerFactory.getLogger(AgentStore.class);
  /** A concurrent writer may win the optimistic lock; re-read and re-apply a few times. */
  private static final int UPDATE_ATTEMPTS = 3;

  private final KubernetesClient client;
  private final ManagedInformer<Agent> cache;
  private final Duration visibilityTimeout;

  AgentStore(KubernetesClient client, ManagedInformer<Agent> cache, Duration visibilityTimeout) {
    this.client = client;
    this.cache = cache;
    this.visibilityTimeout = visibilityTimeout;
  }

  /** Live (not being deleted) agents in a namespace, unordered. Shared objects: do not modify. */
  List<Agent> list(String namespace) {
    return cache.inNamespace(namespace).stream().filter(AgentStore::isLive).toList();
  }

  /** A live agent from the cache. Shared object: do not modify. */
  Optional<Agent> find(String namespace, String name) {
    return cache.get(namespace, name).filter(AgentStore::isLive);
  }

  Agent create(Agent agent) {
    Agent created = agents().inNamespace(agent.getMetadata().getNamespace()).resource(agent).create();
    cache.awaitVisible(created, visibilityTimeout);
    return created;
  }

  /**
   * Applies {@code change} to the current agent and replaces it under optimistic locking; empty
   * when there is no such agent. {@code change} receives a private copy and may modify it.
   */
  Optional<Agent> update(String namespace, String name, UnaryOperator<Agent> change) {
    for (int attempt = 1; ; attempt++) {
      Agent current = agents().inNamespace(namespace).withName(name).get();
      if (current == null || !isLive(current)) {
        return Optional.empty();
      }
      try {
        Agent updated = agents().inNamespace(namespace).resource(change.apply(current)).update();
        cache.awaitVisible(updated, visibilityTimeout);
        return Optional.of(updated);
      } catch (KubernetesClientException conflict) {
        if (conflict.getCode() != 409 || attempt >= UPDATE_ATTEMPTS) {
          throw conflict;
        }
        log.debug("Agent {}/{} changed concurrently; retrying (attempt {})", namespace, name, attempt);
      }
    }
  }

  /** Deletes the agent; false when there was none. */
  boolean delete(String namespace, String name) {
    List<StatusDetails> deleted = agents().inNamespace(namespace).withName(name).delete();
    if (deleted.isEmpty()) {
      return false;
    }
    String uid = deleted.getFirst().getUid();
    cache.awaitGone(namespace, name, uid, visibilityTimeout);
    return true;
  }

  private MixedOperation<Agent, KubernetesResourceList<Agent>, Resource<Agent>> agents() {
    return client.resources(Agent.class);
  }

  /** An agent being deleted (finalizers pending) is already gone for REST clients. */
  private static boolean isLive(Agent agent) {
    return agent.getMetadata().getDeletionTimestamp() == null;
  }
}
