package dev.threadline.local.kubelet.limits;

import java.nio.file.Path;

/**
 * A container's cgroup for the commands its program starts (the runner's {@code
 * THREADLINE_COMMAND_CGROUP}): below the container's own, with a lower process limit ({@link
 * SandboxLimits#commandPids()}), so commands that use all of theirs leave the program some. The
 * program makes one group per command in it.
 *
 * @param folder the cgroup's folder; bound writable into the sandbox, its {@code pids.max}
 *     read-only
 * @param outsideProgramsGroup whether the folder lies outside the cgroup the program starts in
 *     (cgroup v2: a group with processes can have no child groups with limits): a sandbox then
 *     keeps the host's cgroup namespace, or the kernel would refuse to move its commands there
 */
public record CommandGroup(Path folder, boolean outsideProgramsGroup) {}
