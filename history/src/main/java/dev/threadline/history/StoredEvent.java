package dev.threadline.history;

/**
 * An event of a run's log as stored: its place in the log (from 1, without gaps) and what {@link
 * NewEvent} carried.
 */
public record StoredEvent(long seq, String key, String type, String time, String data) {}
