package dev.threadline.api.threads;

import java.util.List;

/** {@code {diffs: [...]}}. */
public record DiffsResponse(List<DiffEntry> diffs) {}
