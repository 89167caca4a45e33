package dev.threadline.api.schedules;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.common.MetadataRules;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.api.limits.LimitExceededException;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.api.usage.ExecutionAllowance;
import dev.threadline.api.webhooks.ConfiguredOn;
import dev.threadline.api.webhooks.WebhookChange;
import dev.threadline.api.webhooks.WebhookSecrets;
import dev.threadline.api.webhooks.WebhookTargets;
import dev.threadline.core.schedule.Schedules;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadState;
import dev.threadline.trigger.ScheduleFirer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schedule operations of one tenant. Everything is looked up in the tenant's own namespace, so
 * another user's schedule, a malformed id and a missing schedule are the same 404. The operator
 * does the firing; this service only writes the Schedule (and, for {@code trigger}, fires it now
 * through the same {@link ScheduleFirer} the CronJob's trigger uses).
 */
public final class ScheduleService {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleService.class);
  private static final ScheduleRules RULES = new ScheduleRules("");
  private static final ScheduleRules IN_THREAD_REQUEST = new ScheduleRules("schedule.");

  private final ScheduleStore store;
  private final ScheduleFirer firer;
  private final WebhookSecrets webhookSecrets;
  private final WebhookTargets webhookTargets;
  private final Clock clock;
  private final ExecutionAllowance allowance;

  /** The shortest interval a recurring schedule may fire at (a chart setting). */
  private final Duration minInterval;

  private final CachedResourceStore<ConversationThread> threads;

  ScheduleService(
      ScheduleStore store,
      CachedResourceStore<ConversationThread> threads,
      ScheduleFirer firer,
      WebhookSecrets webhookSecrets,
      WebhookTargets webhookTargets,
      Clock clock,
      ExecutionAllowance allowance,
      Duration minInterval) {
    this.minInterval = minInterval;
    this.webhookSecrets = webhookSecrets;
    this.webhookTargets = webhookTargets;
    this.allowance = allowance;
    this.store = store;
    this.threads = threads;
    this.firer = firer;
    this.clock = clock;
  }

  public ScheduleView create(Tenant tenant, ScheduleRequests.Create request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    return create(tenant, RULES, request);
  }

  /**
   * The schedule of {@code POST /v1/threads} with messages and a schedule: the thread's agent,
   * environment and appId, the thread's task, and its own webhooks (secrets as on {@link #create});
   * 400s name {@code schedule.<field>}. (The thread endpoint's {@code ScheduleCreator} seam
   * delegates here.)
   */
  public ScheduleView createForThread(Tenant tenant, ThreadScheduleRequest request) {
    return create(tenant, IN_THREAD_REQUEST, forThread(request));
  }

  /**
   * Checks a thread's schedule before the thread is written, with the same 400s as {@link
   * #createForThread}, so that a refused schedule never leaves a thread behind.
   */
  public void validateForThread(ThreadScheduleRequest request) {
    validate(IN_THREAD_REQUEST, forThread(request), clock.instant());
  }

  private static ScheduleRequests.Create forThread(ThreadScheduleRequest request) {
    return new ScheduleRequests.Create(
        request.name() == null ? "Scheduled task" : request.name(),
        request.task(),
        request.type(),
        request.cronExpression(),
        request.scheduledTime(),
        request.agentId(),
        request.environmentId(),
        request.timezone(),
        null,
        null,
        request.appId(),
        null,
        request.webhooks());
  }

  public ListEnvelope<ScheduleView> list(Tenant tenant, ScheduleFilter filter, PageRequest page) {
    List<Schedule> matching =
        store.list(tenant.namespace()).stream()
            .filter(ScheduleMapper::hasRestId)
            .filter(filter)
            .sorted(ScheduleMapper.LIST_ORDER)
            .toList();
    long enabled = matching.stream().filter(ScheduleMapper::willFire).count();
    Instant now = clock.instant();
    return page.apply(matching)
        .map(schedule -> ScheduleMapper.toView(schedule, tenant.userId(), now))
        .withStats(new ScheduleStats(matching.size(), enabled, matching.size() - enabled));
  }

  public ScheduleView get(Tenant tenant, String scheduleId) {
    return ScheduleMapper.toView(find(tenant, scheduleId), tenant.userId(), clock.instant());
  }

  public ScheduleView update(Tenant tenant, String scheduleId, ScheduleRequests.Update request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    // Field-level checks before touching the cluster; the ones that need the current schedule
    // (a cron on a one-time schedule, a new zone for the old cron) run inside the update.
    String displayName =
        request.name() == null ? null : RULES.text("name", request.name(), ScheduleRules.MAX_NAME);
    String task =
        request.task() == null ? null : RULES.text("task", request.task(), ScheduleRules.MAX_TASK);
    ZoneId zone = request.timezone() == null ? null : RULES.timezone(request.timezone());
    if (request.cronExpression() != null) {
      RULES.cron(
          request.cronExpression(),
          zone == null ? ZoneId.of("UTC") : zone,
          minInterval,
          clock.instant());
    }
    WebhookChange webhooks = webhookTargets.change(request.webhooks(), ConfiguredOn.SCHEDULE);
    String name = nameOf(scheduleId);
    Map<String, String> stored =
        webhooks == null ? Map.of() : webhookSecrets.read(tenant.namespace(), name);
    AtomicReference<WebhookChange.Resolved> resolved = new AtomicReference<>();
    Schedule updated =
        update(
            tenant,
            scheduleId,
            schedule -> {
              ScheduleSpec spec = schedule.getSpec();
              if (request.cronExpression() != null || zone != null) {
                if (request.cronExpression() != null && !Schedules.isRecurring(schedule)) {
                  throw RULES.bad("cronExpression", "applies only to recurring schedules");
                }
                String cron =
                    request.cronExpression() != null
                        ? request.cronExpression()
                        : spec.getCronExpression();
                ZoneId newZone = zone != null ? zone : RULES.timezone(Schedules.timezone(schedule));
                if (Schedules.isRecurring(schedule)) {
                  spec.setCronExpression(
                      RULES.cron(cron, newZone, minInterval, clock.instant()).expression());
                }
                spec.setTimezone(newZone.getId());
              }
              if (displayName != null) {
                spec.setDisplayName(displayName);
              }
              if (task != null) {
                spec.setTask(task);
              }
              if (request.description() != null) {
                spec.setDescription(
                    RULES.optionalText(
                        "description", request.description(), ScheduleRules.MAX_DESCRIPTION));
              }
              if (request.enabled() != null) {
                setEnabled(schedule, scheduleId, request.enabled());
              }
              if (webhooks != null) {
                resolved.set(webhooks.resolve(name, spec.getWebhooks(), stored));
                spec.setWebhooks(resolved.get().endpoints());
              }
            });
    if (resolved.get() != null) {
      webhookSecrets.write(updated, resolved.get());
    }
    return ScheduleMapper.toView(
        updated,
        tenant.userId(),
        clock.instant(),
        resolved.get() == null ? Map.of() : resolved.get().generated());
  }

  public ScheduleView setEnabled(Tenant tenant, String scheduleId, boolean enabled) {
    return ScheduleMapper.toView(
        update(tenant, scheduleId, schedule -> setEnabled(schedule, scheduleId, enabled)),
        tenant.userId(),
        clock.instant());
  }

  public void delete(Tenant tenant, String scheduleId) {
    String name = nameOf(scheduleId);
    // The CronJob and the webhooks Secret (owned by the Schedule) are garbage-collected with it;
    // the Secret goes now, so that no signing secret outlives its schedule even briefly.
    if (!store.delete(tenant.namespace(), name)) {
      throw notFound(scheduleId);
    }
    webhookSecrets.delete(tenant.namespace(), name);
  }

  /** Fires the schedule now, whatever its next run, enabled or not: a new thread with the task. */
  public ScheduleResponses.Triggered trigger(Tenant tenant, String scheduleId) {
    Schedule schedule = find(tenant, scheduleId);
    allowance.requireAllowance(tenant);
    threads.checkRoom(tenant.namespace()); // the firing makes a thread like POST /v1/threads
    Instant now = clock.instant();
    String threadName = ResourceIds.toName(ResourceIds.newId("thread")).orElseThrow();
    ScheduleFirer.Firing firing = firer.fire(schedule, threadName, now);
    if (firing.isSkipped()) { // the cache lagged behind threads made meanwhile
      throw new LimitExceededException(firing.skipped());
    }
    LOG.info(
        "Schedule({}/{}) triggered by its user: thread {}",
        tenant.namespace(),
        schedule.getMetadata().getName(),
        firing.threadName());
    return new ScheduleResponses.Triggered(
        new ScheduleResponses.TriggeredThread(
            ResourceIds.toId(firing.threadName()), ThreadState.RUNNING.value()),
        "Schedule triggered: thread "
            + ResourceIds.toId(firing.threadName())
            + " is running the task");
  }

  private ScheduleView create(Tenant tenant, ScheduleRules rules, ScheduleRequests.Create request) {
    Instant now = clock.instant();
    Validated valid = validate(rules, request, now);
    ScheduleSpec spec = valid.spec();
    String id = ResourceIds.newId(ScheduleMapper.ID_PREFIX);
    String name = ResourceIds.toName(id).orElseThrow();
    WebhookChange.Resolved resolved =
        valid.webhooks() == null ? null : valid.webhooks().resolve(name, List.of(), Map.of());
    if (resolved != null) {
      spec.setWebhooks(resolved.endpoints());
    }
    Schedule created = store.create(ScheduleMapper.newSchedule(tenant.namespace(), id, spec, now));
    if (resolved != null) {
      webhookSecrets.writeForNew(created, resolved, () -> store.delete(tenant.namespace(), name));
    }
    LOG.info(
        "Schedule({}/{}) created: {} {}",
        tenant.namespace(),
        created.getMetadata().getName(),
        spec.getScheduleType(),
        spec.getCronExpression() != null ? spec.getCronExpression() : spec.getScheduledTime());
    return ScheduleMapper.toView(
        created, tenant.userId(), now, resolved == null ? Map.of() : resolved.generated());
  }

  /** The spec a request asks for, and its webhooks. */
  private record Validated(ScheduleSpec spec, WebhookChange webhooks) {}

  /** Checks every field before anything is written: a 400 naming the first bad one. */
  private Validated validate(ScheduleRules rules, ScheduleRequests.Create request, Instant now) {
    ScheduleSpec spec = new ScheduleSpec();
    spec.setDisplayName(rules.requiredText("name", request.name(), ScheduleRules.MAX_NAME));
    spec.setTask(rules.requiredText("task", request.task(), ScheduleRules.MAX_TASK));
    spec.setScheduleType(rules.scheduleType(request.scheduleType()));
    ZoneId zone = rules.timezone(request.timezone());
    spec.setTimezone(zone.getId());
    if (Schedule.RECURRING.equals(spec.getScheduleType())) {
      if (request.scheduledTime() != null) {
        throw rules.bad("scheduledTime", "applies only to one-time schedules");
      }
      spec.setCronExpression(
          rules.cron(request.cronExpression(), zone, minInterval, now).expression());
    } else {
      if (request.cronExpression() != null) {
        throw rules.bad("cronExpression", "applies only to recurring schedules");
      }
      spec.setScheduledTime(
          Timestamps.format(rules.scheduledTime(request.scheduledTime(), zone, now)));
    }
    spec.setAgent(rules.reference("agentId", request.agentId(), "agent"));
    spec.setEnvironment(rules.reference("environmentId", request.environmentId(), "env"));
    spec.setEnabled(request.enabled() == null || request.enabled());
    spec.setDescription(
        rules.optionalText("description", request.description(), ScheduleRules.MAX_DESCRIPTION));
    spec.setAppId(rules.optionalText("appId", request.appId(), ScheduleRules.MAX_APP_ID));
    MetadataRules.checkSize(rules.field("metadata"), request.metadata());
    spec.setMetadata(ScheduleMapper.metadataTree(request.metadata()));
    return new Validated(
        spec,
        webhookTargets.change(request.webhooks(), ConfiguredOn.SCHEDULE, rules.field("webhooks")));
  }

  private static void setEnabled(Schedule schedule, String scheduleId, boolean enabled) {
    if (enabled && !Schedules.isRecurring(schedule) && Schedules.hasFired(schedule)) {
      throw ApiException.conflict(
          "Schedule "
              + scheduleId
              + " is a one-time schedule that has already run; create a new schedule to run it"
              + " again");
    }
    schedule.getSpec().setEnabled(enabled);
  }

  private Schedule update(
      Tenant tenant, String scheduleId, java.util.function.Consumer<Schedule> change) {
    return store
        .update(
            tenant.namespace(),
            nameOf(scheduleId),
            current -> {
              if (current.getSpec() == null) {
                current.setSpec(new ScheduleSpec());
              }
              change.accept(current);
              RestResources.touch(current, clock.instant());
              return current;
            })
        .orElseThrow(() -> notFound(scheduleId));
  }

  private Schedule find(Tenant tenant, String scheduleId) {
    return store
        .find(tenant.namespace(), nameOf(scheduleId))
        .orElseThrow(() -> notFound(scheduleId));
  }

  private static String nameOf(String scheduleId) {
    return ResourceIds.toName(scheduleId, ScheduleMapper.ID_PREFIX)
        .orElseThrow(() -> notFound(scheduleId));
  }

  private static ApiException notFound(String scheduleId) {
    return ApiException.notFound("Schedule " + scheduleId);
  }
}
