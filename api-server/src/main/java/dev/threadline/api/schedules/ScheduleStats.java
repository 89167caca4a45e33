package dev.threadline.api.schedules;

import dev.threadline.api.paging.ListStats;

/**
 * The {@code stats} of a schedule list, counted over every schedule that matches the filters (not
 * just the page): how many, and how many of them will fire ({@code enabled}) or not.
 */
record ScheduleStats(long total, long enabled, long disabled) implements ListStats {}
