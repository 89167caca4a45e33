package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.crds.thread.ThreadState;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The thread operations of one tenant. Everything is looked up in the tenant's own namespace, so
 * another user's thread, a malformed id and a missing thread are the same 404.
 */
public final class ThreadService {
  private final ThreadStore threads;
  private final RunStore runs;
  private final AgentDirectory agents;
  private final Clock clock;
  private final KeptThreads kept;

  ThreadService(
      ThreadStore threads, RunStore runs, AgentDirectory agents, Clock clock, KeptThreads kept) {
    this.threads = threads;
    this.runs = runs;
    this.agents = agents;
    this.clock = clock;
    this.kept = kept;
  }

  /** The validated spec of a new thread, before anything is written. */
  ThreadSpec newSpec(Tenant tenant, ThreadRequests.Create request, String firstMessage) {
    ThreadSpec spec = new ThreadSpec();
    String title = ThreadRules.title(request.title());
    spec.setTitle(
        title == null && firstMessage != null ? ThreadRules.titleFrom(firstMessage) : title);
    spec.setEnvironment(environmentName(request.environmentId()));
    spec.setAgent(agentName(tenant, request.agentId()));
    spec.setAppId(ThreadRules.appId(request.appId()));
    spec.setMetadata(ThreadRules.metadata(request.metadata()));
    return spec;
  }

  ConversationThread create(Tenant tenant, ThreadSpec spec) {
    String id = ResourceIds.newId(ThreadMapper.ID_PREFIX);
    return threads.create(ThreadMapper.newThread(tenant.namespace(), id, spec, clock.instant()));
  }

  public ListEnvelope<ThreadSummary> list(Tenant tenant, ThreadFilter filter, PageRequest page) {
    String namespace = tenant.namespace();
    // The live threads and those kept in the history store, one newest-first order.
    Stream<ConversationThread> newestFirst =
        NewestFirst.merge(threads.listed(namespace), kept.newestFirst(namespace));
    if (filter.status() == null) {
      // Unfiltered, only the page is read; filtered, every thread once (in order, no sort). Only
      // the page's threads need their runs rolled up.
      ListEnvelope<ConversationThread> threadPage =
          filter.isEmpty()
              ? page.fromOrdered(
                  newestFirst, threads.countListed(namespace) + kept.count(namespace))
              : page.fromOrdered(newestFirst.filter(filter.specMatches()));
      return threadPage.map(thread -> view(tenant, thread).summary());
    }
    // The status filter needs each thread's rollup.
    return page.fromOrdered(
            newestFirst
                .filter(filter.specMatches())
                .map(thread -> view(tenant, thread))
                .filter(filter.viewMatches()))
        .map(ThreadView::summary);
  }

  public ThreadView get(Tenant tenant, String threadId) {
    return view(tenant, find(tenant, threadId));
  }

  public ThreadView update(Tenant tenant, String threadId, ThreadRequests.Update request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    String name = nameOf(threadId);
    boolean changeTitle = request.title() != null;
    String title = ThreadRules.title(request.title());
    boolean changeMetadata = request.metadata() != null && !request.metadata().isNull();
    com.fasterxml.jackson.databind.JsonNode metadata = ThreadRules.metadata(request.metadata());
    if (!changeTitle && !changeMetadata) {
      return get(tenant, threadId);
    }
    ConversationThread updated =
        threads
            .update(
                tenant.namespace(),
                name,
                current -> {
                  ThreadSpec spec =
                      Objects.requireNonNullElseGet(current.getSpec(), ThreadSpec::new);
                  if (changeTitle) {
                    spec.setTitle(title);
                  }
                  if (changeMetadata) {
                    spec.setMetadata(metadata);
                  }
                  current.setSpec(spec);
                  RestResources.touch(current, clock.instant());
                  return current;
                })
            .orElseThrow(() -> notFound(threadId));
    return view(tenant, updated);
  }

  /** Deletes the thread, live or kept, and all its history. */
  public void delete(Tenant tenant, String threadId) {
    String name = nameOf(threadId);
    find(tenant, threadId);
    runs.deleteOfThread(tenant.namespace(), name);
    threads.delete(tenant.namespace(), name);
    kept.delete(tenant.namespace(), name);
  }

  /**
   * The tenant's thread, live or kept in the history store after its retention; 404 otherwise.
   * Shared object: do not modify.
   */
  ConversationThread find(Tenant tenant, String threadId) {
    String name = nameOf(threadId);
    return threads
        .find(tenant.namespace(), name)
        .or(() -> kept.thread(tenant.namespace(), name))
        .orElseThrow(() -> notFound(threadId));
  }

  /**
   * The tenant's live thread, to add a run to: one kept in the history store after its retention is
   * brought back into the API first (with its totals; its history never left the store).
   */
  ConversationThread live(Tenant tenant, String threadId) {
    String name = nameOf(threadId);
    Optional<ConversationThread> live = threads.find(tenant.namespace(), name);
    if (live.isPresent()) {
      return live.get();
    }
    ConversationThread keptThread =
        kept.thread(tenant.namespace(), name).orElseThrow(() -> notFound(threadId));
    ConversationThread revived = threads.revive(keptThread);
    kept.revived(revived);
    return revived;
  }

  /**
   * The thread's runs, oldest first: those that left the API after their retention, then the live
   * ones. A run a {@code rollback} message undid is none of them (the operator removes it once it
   * has stopped).
   */
  List<Run> runsOf(ConversationThread thread) {
    List<Run> live =
        runs.ofThread(thread.getMetadata().getNamespace(), thread.getMetadata().getName()).stream()
            .filter(run -> !RunPhase.undone(run))
            .toList();
    List<Run> left = kept.runsOf(thread);
    if (left.isEmpty()) {
      return live;
    }
    java.util.Set<String> liveNames =
        live.stream().map(run -> run.getMetadata().getName()).collect(Collectors.toSet());
    return Stream.concat(
            left.stream().filter(run -> !liveNames.contains(run.getMetadata().getName())),
            live.stream())
        .sorted(RunStore.BY_SEQUENCE)
        .toList();
  }

  /** One of the tenant's runs that left the API after its retention, as it was then. */
  public Optional<Run> leftRun(Tenant tenant, String runName) {
    return kept.run(tenant.namespace(), runName);
  }

  ThreadView view(Tenant tenant, ConversationThread thread) {
    return ThreadMapper.toView(thread, runsOf(thread), tenant.userId());
  }

  private String agentName(Tenant tenant, String agentId) {
    if (agentId == null) {
      return null;
    }
    return ResourceIds.toName(agentId, ThreadMapper.AGENT_PREFIX)
        .filter(name -> agents.exists(tenant.namespace(), name))
        .orElseThrow(() ->
            ApiException.badRequest("agentId", "does not name an existing agent: " + agentId));
  }

  /**
   * Environments are checked for form only: whether one exists is the operator's concern when a run
   * needs it (and environments may be created after the thread).
   */
  private static String environmentName(String environmentId) {
    if (environmentId == null) {
      return null;
    }
    return ResourceIds.toName(environmentId, ThreadMapper.ENVIRONMENT_PREFIX)
        .orElseThrow(() ->
            ApiException.badRequest(
                "environmentId", "must be an environment id (env_…): " + environmentId));
  }

  static String nameOf(String threadId) {
    return ResourceIds.toName(threadId, ThreadMapper.ID_PREFIX)
        .orElseThrow(() -> notFound(threadId));
  }

  static ApiException notFound(String threadId) {
    return ApiException.notFound("Thread " + threadId);
  }

  /** The filters of {@code GET /v1/threads}; null means "any". */
  /**
   * @param scheduleId beyond the contract: the threads a schedule's firings and triggers made
   */
  public record ThreadFilter(
      String environmentId, String agentId, String appId, String status, String scheduleId) {
    private static final String STATES =
        Arrays.stream(ThreadState.values())
            .map(ThreadState::value)
            .collect(Collectors.joining(", "));

    public ThreadFilter {
      if (status != null
          && Arrays.stream(ThreadState.values()).noneMatch(state -> state.value().equals(status))) {
        throw ApiException.badRequest("status", "must be one of " + STATES);
      }
    }

    Predicate<ConversationThread> specMatches() {
      return thread -> {
        ThreadSpec spec = Objects.requireNonNullElseGet(thread.getSpec(), ThreadSpec::new);
        return matches(environmentId, ThreadMapper.ENVIRONMENT_PREFIX, spec.getEnvironment())
            && matches(agentId, ThreadMapper.AGENT_PREFIX, spec.getAgent())
            && (appId == null || appId.equals(spec.getAppId()))
            && matches(scheduleId, ThreadMapper.SCHEDULE_PREFIX, scheduleOf(thread));
      };
    }

    private static String scheduleOf(ConversationThread thread) {
      Map<String, String> labels = thread.getMetadata().getLabels();
      return labels == null ? null : labels.get(Labels.SCHEDULE);
    }

    /** Whether it lets every thread through. */
    boolean isEmpty() {
      return environmentId == null
          && agentId == null
          && appId == null
          && status == null
          && scheduleId == null;
    }

    Predicate<ThreadView> viewMatches() {
      return view -> status == null || status.equals(view.status());
    }

    /** An id that names nothing of its kind matches no thread. */
    private static boolean matches(String id, String prefix, String name) {
      if (id == null) {
        return true;
      }
      Optional<String> wanted = ResourceIds.toName(id, prefix);
      return wanted.isPresent() && wanted.get().equals(name);
    }
  }
}
