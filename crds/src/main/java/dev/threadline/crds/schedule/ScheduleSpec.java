package dev.threadline.crds.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.webhook.WebhookEndpoint;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

/** What to run, where, and when. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "self.scheduleType != 'recurring' || has(self.cronExpression)",
    message = "cronExpression is required for recurring schedules")
@ValidationRule(
    value = "self.scheduleType != 'one-time' || has(self.scheduledTime)",
    message = "scheduledTime is required for one-time schedules")
public class ScheduleSpec {
  @JsonPropertyDescription("Human-readable name of the schedule (the REST `name`).")
  @Size(max = 200)
  private String displayName;

  @JsonPropertyDescription("What the schedule is for.")
  @Size(max = 2000)
  private String description;

  @JsonPropertyDescription(
      "The task to execute: the first message of each thread the schedule creates.")
  @Required
  @Size(min = 1, max = 1048576)
  private String task;

  @JsonPropertyDescription("Name of the Agent that runs the task; the service default when absent.")
  @Size(max = 253)
  private String agent;

  @JsonPropertyDescription(
      "Name of the Environment the task runs in; the user's default when absent.")
  @Size(max = 253)
  private String environment;

  @JsonPropertyDescription(
      "`one-time` (fires once at scheduledTime) or `recurring` (fires on cronExpression).")
  @Required
  @Pattern("^(one-time|recurring)$")
  private String scheduleType;

  @JsonPropertyDescription(
      "Recurring only: five fields (minute hour day-of-month month day-of-week, Sunday = 0), read"
          + " in `timezone`.")
  @Size(max = 200)
  private String cronExpression;

  @JsonPropertyDescription(
      "One-time only: when to fire, an ISO 8601 instant such as 2026-12-24T09:00:00Z.")
  @Size(max = 64)
  private String scheduledTime;

  @JsonPropertyDescription("IANA time zone the cron expression is read in, e.g. Europe/Berlin.")
  @Default("UTC")
  @Size(min = 1, max = 64)
  private String timezone;

  @JsonPropertyDescription("Whether the schedule fires; false suspends it (its CronJob too).")
  @Default("true")
  private Boolean enabled;

  @JsonPropertyDescription("Identifier of the application the schedule's threads belong to.")
  @Size(max = 200)
  private String appId;

  @JsonPropertyDescription("Custom key-value data, copied onto every thread the schedule creates.")
  private JsonNode metadata;

  @JsonPropertyDescription(
      "Receivers of this resource's events, signed per Standard Webhooks. See docs/webhooks.md.")
  @Size(max = WebhookEndpoint.MAX_PER_RESOURCE)
  private List<WebhookEndpoint> webhooks = new ArrayList<>();

  public String getDisplayName() {
    return displayName;
  }

  public void setDisplayName(String displayName) {
    this.displayName = displayName;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }

  public String getTask() {
    return task;
  }

  public void setTask(String task) {
    this.task = task;
  }

  public String getAgent() {
    return agent;
  }

  public void setAgent(String agent) {
    this.agent = agent;
  }

  public String getEnvironment() {
    return environment;
  }

  public void setEnvironment(String environment) {
    this.environment = environment;
  }

  public String getScheduleType() {
    return scheduleType;
  }

  public void setScheduleType(String scheduleType) {
    this.scheduleType = scheduleType;
  }

  public String getCronExpression() {
    return cronExpression;
  }

  public void setCronExpression(String cronExpression) {
    this.cronExpression = cronExpression;
  }

  public String getScheduledTime() {
    return scheduledTime;
  }

  public void setScheduledTime(String scheduledTime) {
    this.scheduledTime = scheduledTime;
  }

  public String getTimezone() {
    return timezone;
  }

  public void setTimezone(String timezone) {
    this.timezone = timezone;
  }

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public String getAppId() {
    return appId;
  }

  public void setAppId(String appId) {
    this.appId = appId;
  }

  public JsonNode getMetadata() {
    return metadata;
  }

  public void setMetadata(JsonNode metadata) {
    this.metadata = metadata;
  }

  public List<WebhookEndpoint> getWebhooks() {
    return webhooks;
  }

  public void setWebhooks(List<WebhookEndpoint> webhooks) {
    this.webhooks = webhooks;
  }
}
