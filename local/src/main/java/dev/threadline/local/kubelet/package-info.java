/**
 * The node and the controllers of local mode: what a cluster adds to its API, played in-process
 * against any API server through a fabric8 {@code KubernetesClient}.
 *
 * <ul>
 *   <li>{@link dev.threadline.local.kubelet.ProcessKubelet} runs Pods as host processes and serves
 *       their logs ({@link dev.threadline.local.podlog.PodLogSource}).
 *   <li>{@link dev.threadline.local.kubelet.LocalImages} says which images run here and how ({@link
 *       dev.threadline.local.kubelet.LocalProgram}); nothing is pulled.
 *   <li>{@code controllers.JobController} and {@code controllers.CronJobController} stand in for
 *       kube-controller-manager; the embedded API deletes owned objects with their owner.
 *   <li>{@link dev.threadline.local.kubelet.LocalCluster} starts and stops all of them together.
 *   <li>{@code sandbox}: Pods that do not ask for the API run under bubblewrap when it is installed
 *       ({@code sandbox.Bubblewrap}): only their own folders and volumes are visible and writable,
 *       with a private {@code /proc} and {@code /tmp}, and no network when their NetworkPolicies
 *       allow no egress ({@code sandbox.EgressPolicy}); their ports are then bridged in over a Unix
 *       socket ({@code sandbox.HostPortBridge}, {@code sandbox.PortBridge}).
 * </ul>
 *
 * <p>What a process cannot be, and so local mode does not do: unconfined processes (no bubblewrap,
 * or a trigger Pod) run as the JVM's user with the host's file system, only their environment
 * minimal; container paths are rewritten to host folders where a whole value names a mounted path
 * (a sandbox sees its folders at their host paths too); no resource limits, liveness probes, or
 * ports of their own (every Pod's IP is 127.0.0.1; an {@code httpGet} readiness probe is run
 * against 127.0.0.1, so a sandbox Pod is ready once its runner serves), no container restarts
 * (every Pod behaves as {@code restartPolicy: Never}), and read-only mounts are enforced in
 * sandboxes only. Volumes: emptyDir, configMap, secret, persistentVolumeClaim and hostPath; others
 * fail the Pod with reason {@code VolumeNotSupportedLocally}.
 */
package dev.threadline.local.kubelet;
