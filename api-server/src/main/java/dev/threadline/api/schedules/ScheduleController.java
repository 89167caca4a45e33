package dev.threadline.api.schedules;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.common.SuccessResponse;
import dev.threadline.api.idempotency.IdempotencyKeys;
import dev.threadline.api.idempotency.IdempotentRequests;
import dev.threadline.api.idempotency.RequestFingerprint;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.api.webhooks.WebhookReplays;
import dev.threadline.api.webhooks.WebhookSecrets;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /v1/schedules}: the caller's Schedule resources, enable/disable, and firing one now. */
@RestController
@RequestMapping(path = "/v1/schedules", produces = MediaType.APPLICATION_JSON_VALUE)
class ScheduleController {
  private final ScheduleService schedules;
  private final IdempotentRequests idempotency;
  private final WebhookReplays webhookReplays;

  ScheduleController(
      ScheduleService schedules, IdempotentRequests idempotency, WebhookSecrets webhookSecrets) {
    this.schedules = schedules;
    this.idempotency = idempotency;
    this.webhookReplays = new WebhookReplays(webhookSecrets, "schedule");
  }

  /**
   * A generated webhook secret is not kept in the idempotency record: a repeat shows the one the
   * schedule's webhooks Secret holds (see {@link WebhookReplays}).
   */
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> create(
      Tenant tenant,
      @RequestBody(required = false) ScheduleRequests.Create request,
      @RequestHeader(name = IdempotencyKeys.HEADER, required = false) String idempotencyKey,
      HttpServletRequest http) {
    return idempotency.executeJson(
        tenant,
        idempotencyKey,
        () -> RequestFingerprint.of(http, request),
        () -> {
          ScheduleView created = schedules.create(tenant, request);
          return ResponseEntity.created(URI.create("/v1/schedules/" + created.id()))
              .body(new ScheduleResponses.Single(created));
        },
        webhookReplays);
  }

  /** Default limit 50, at most 100 (as the other lists); {@code stats} counts all matches. */
  @GetMapping
  ListEnvelope<ScheduleView> list(
      Tenant tenant,
      PageRequest page,
      @RequestParam(required = false) String agentId,
      @RequestParam(required = false) String environmentId,
      @RequestParam(required = false) String appId,
      @RequestParam(required = false) String scheduleType,
      @RequestParam(required = false) String enabled) {
    return schedules.list(
        tenant, ScheduleFilter.parse(agentId, environmentId, appId, scheduleType, enabled), page);
  }

  @GetMapping("/{scheduleId}")
  ScheduleResponses.Single get(Tenant tenant, @PathVariable String scheduleId) {
    return new ScheduleResponses.Single(schedules.get(tenant, scheduleId));
  }

  @PatchMapping(path = "/{scheduleId}", consumes = MediaType.APPLICATION_JSON_VALUE)
  ScheduleResponses.Single update(
      Tenant tenant,
      @PathVariable String scheduleId,
      @RequestBody(required = false) ScheduleRequests.Update request) {
    return new ScheduleResponses.Single(schedules.update(tenant, scheduleId, request));
  }

  @DeleteMapping("/{scheduleId}")
  SuccessResponse delete(Tenant tenant, @PathVariable String scheduleId) {
    schedules.delete(tenant, scheduleId);
    return SuccessResponse.OK;
  }

  @PostMapping("/{scheduleId}/trigger")
  ResponseEntity<?> trigger(
      Tenant tenant,
      @PathVariable String scheduleId,
      @RequestHeader(name = IdempotencyKeys.HEADER, required = false) String idempotencyKey,
      HttpServletRequest http) {
    return idempotency.executeJson(
        tenant,
        idempotencyKey,
        () -> RequestFingerprint.of(http, null),
        () -> ResponseEntity.ok(schedules.trigger(tenant, scheduleId)));
  }

  @PatchMapping("/{scheduleId}/enable")
  ScheduleResponses.Toggled enable(Tenant tenant, @PathVariable String scheduleId) {
    return toggled(schedules.setEnabled(tenant, scheduleId, true));
  }

  @PatchMapping("/{scheduleId}/disable")
  ScheduleResponses.Toggled disable(Tenant tenant, @PathVariable String scheduleId) {
    return toggled(schedules.setEnabled(tenant, scheduleId, false));
  }

  private static ScheduleResponses.Toggled toggled(ScheduleView view) {
    return new ScheduleResponses.Toggled(new ScheduleResponses.Toggle(view.id(), view.enabled()));
  }
}
