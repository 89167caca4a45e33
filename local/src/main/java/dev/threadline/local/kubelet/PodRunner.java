package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.limits.CommandGroup;
import dev.threadline.local.kubelet.limits.ResourceControl;
import dev.threadline.local.kubelet.limits.SandboxLimits;
import dev.threadline.local.kubelet.limits.StorageWatch;
import dev.threadline.local.kubelet.sandbox.Bubblewrap;
import dev.threadline.local.kubelet.sandbox.EgressPolicy;
import dev.threadline.local.kubelet.sandbox.HostPortBridge;
import dev.threadline.local.kubelet.sandbox.SandboxSpec;
import dev.threadline.local.kubelet.support.Describe;
import dev.threadline.local.podlog.BufferedPodLog;
import dev.threadline.runner.tools.CommandGroups;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one Pod from start to end: Pending, volumes, init containers one after another, then all
 * containers at once; the Pod ends when all have ended. Containers are not restarted (every Pod
 * behaves as {@code restartPolicy: Never}). Stopping — by deadline, deletion or kubelet shutdown —
 * ends the processes with a grace period.
 */
final class PodRunner {
  private static final Logger LOG = LoggerFactory.getLogger(PodRunner.class);
  static final String IMAGE_NOT_RUNNABLE = "ImageNotRunnableLocally";
  static final String CREATE_CONTAINER_ERROR = "CreateContainerError";
  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
  static final String DEADLINE_MESSAGE =
      "Pod was active on the node longer than the specified deadline";
  private static final int TERMINATION_MESSAGE_LIMIT = 4096;
  static final String EVICTED = "Evicted";
  static final String OOM_KILLED = "OOMKilled";

  /** How often the Pod's disk usage is measured against its bounds. */
  private static final Duration STORAGE_CHECK = Duration.ofSeconds(2);

  /** The size of a sandbox's root and {@code /tmp} when nothing bounds its storage. */
  static final long DEFAULT_TMPFS_BYTES = 512L << 20;

  /** The variable fabric8 clients read the API server's address from. */
  static final String KUBERNETES_MASTER = "KUBERNETES_MASTER";

  static final String KUBERNETES_CERTS_CA_DATA = "KUBERNETES_CERTS_CA_DATA";
  static final String KUBERNETES_AUTH_TOKEN = "KUBERNETES_AUTH_TOKEN";

  /**
   * Why the kubelet stopped the Pod before its containers ended on their own, the weakest first: a
   * later reason replaces an earlier one only if it is stronger.
   */
  enum Stop {
    DEADLINE,
    EVICTED,
    SHUTDOWN,
    DELETED
  }

  private final Pod pod;
  private final String described;
  private final KubeletSettings settings;
  private final LocalImages images;
  private final PodDirectories directories;
  private final PodLogRegistry logs;
  private final ScheduledExecutorService scheduler;
  private final VolumeMaterializer volumes;
  private final PodStatusTracker tracker;
  private final PodStatusWriter writer;
  private final io.fabric8.kubernetes.client.KubernetesClient client;
  private final Map<String, ContainerProcess> running = new LinkedHashMap<>();
  private final Map<String, HostPortBridge> bridges = new LinkedHashMap<>();
  private final Map<String, ResourceControl.Bounds> bounds = new LinkedHashMap<>();
  private String evictionMessage;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private Stop stop;
  private ScheduledFuture<?> deadline;

  /** Set by the operator on warm-pool Pods: {@code internet} or {@code none}. */
  static final String EGRESS_ON_CLAIM = "threadline.dev/egress-on-claim";

  private Instant startedAt;
  private Long deadlineSeconds;

  PodRunner(
      Pod pod,
      io.fabric8.kubernetes.client.KubernetesClient client,
      KubeletSettings settings,
      LocalImages images,
      PodDirectories directories,
      PodLogRegistry logs,
      ScheduledExecutorService scheduler) {
    this.pod = pod;
    this.described =
        Describe.of("Pod", pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    this.client = client;
    this.settings = settings;
    this.images = images;
    this.directories = directories;
    this.logs = logs;
    this.scheduler = scheduler;
    this.volumes = new VolumeMaterializer(directories);
    this.tracker = new PodStatusTracker(pod);
    this.writer = new PodStatusWriter(client, pod, tracker);
  }

  boolean is(String namespace, String name) {
    return pod.getMetadata().getNamespace().equals(namespace)
        && pod.getMetadata().getName().equals(name);
  }

  /** Completes when the Pod has ended and none of its processes is left. */
  CompletableFuture<Void> done() {
    return done;
  }

  void run() {
    try {
      Instant start = Instant.now();
      tracker.scheduled(start);
      writer.write();
      scheduleDeadline(start, pod.getSpec().getActiveDeadlineSeconds());
      runContainers();
    } catch (PodStartFailure failure) {
      LOG.info("{} cannot start: {} ({})", described, failure.reason(), failure.getMessage());
      finish(PodStatusTracker.PHASE_FAILED, failure.reason(), failure.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(Stop.SHUTDOWN);
    } catch (RuntimeException e) {
      LOG.warn("{} failed in the kubelet", described, e);
      finish(
          PodStatusTracker.PHASE_FAILED,
          "KubeletError",
          "the local kubelet could not run this Pod: " + e.getMessage());
    } finally {
      synchronized (this) {
        if (deadline != null) {
          deadline.cancel(false);
        }
      }
      done.complete(null);
    }
  }

  /** Ends the Pod's processes (SIGTERM, then SIGKILL after the grace period); returns at once. */
  void stop(Stop why) {
    List<ContainerProcess> toStop;
    synchronized (this) {
      if (stop == null || why.compareTo(stop) > 0) {
        stop = why;
      }
      if (why == Stop.SHUTDOWN || why == Stop.DELETED) {
        // After deletion or shutdown nothing may be written.
        writer.silence();
      }
      toStop = List.copyOf(running.values());
    }
    if (!toStop.isEmpty()) {
      LOG.info("{} stopping ({}): ending {} process(es)", described, why, toStop.size());
    }
    for (ContainerProcess process : toStop) {
      Thread.ofVirtual()
          .name("stop-" + described)
          .start(() -> process.terminate(settings.terminationGrace()));
    }
  }

  private void runContainers() throws PodStartFailure, InterruptedException {
    List<Container> initContainers =
        pod.getSpec().getInitContainers() == null ? List.of() : pod.getSpec().getInitContainers();
    List<Container> containers = pod.getSpec().getContainers();
    Map<String, LocalProgram> programs =
        programsFor(Stream.concat(initContainers.stream(), containers.stream()).toList());
    PodConfigData config = new PodConfigData(client, pod.getMetadata().getNamespace());
    Map<String, Path> hostVolumes = volumes.materialize(pod, config);
    PodEnvironmentResolver environment = new PodEnvironmentResolver(pod, config);

    for (Container init : initContainers) {
      if (stopped()) {
        finishStopped();
        return;
      }
      PreparedContainer prepared =
          prepare(init, programs.get(init.getName()), hostVolumes, environment);
      int exitCode = runToEnd(prepared);
      if (exitCode != 0) {
        finishStoppedOr(PodStatusTracker.PHASE_FAILED, null, null);
        return;
      }
    }
    if (stopped()) {
      finishStopped();
      return;
    }
    tracker.initialized(Instant.now());

    List<PreparedContainer> prepared = new ArrayList<>();
    for (Container container : containers) {
      prepared.add(prepare(container, programs.get(container.getName()), hostVolumes, environment));
    }
    List<Thread> waiters = new ArrayList<>();
    int[] exitCodes = new int[prepared.size()];
    for (int i = 0; i < prepared.size(); i++) {
      int index = i;
      PreparedContainer container = prepared.get(i);
      ContainerProcess process = start(container);
      if (process == null) {
        exitCodes[index] = -1;
        continue;
      }
      waiters.add(
          Thread.ofVirtual()
              .name("wait-" + described + "-" + container.name())
              .start(() -> exitCodes[index] = awaitEnd(container, process)));
    }
    writer.write();
    watchStorage(hostVolumes, waiters);
    for (Thread waiter : waiters) {
      waiter.join();
    }
    boolean allSucceeded = Arrays.stream(exitCodes).allMatch(code -> code == 0);
    finishStoppedOr(
        allSucceeded ? PodStatusTracker.PHASE_SUCCEEDED : PodStatusTracker.PHASE_FAILED,
        null,
        null);
  }

  private Map<String, LocalProgram> programsFor(List<Container> containers) throws PodStartFailure {
    Map<String, LocalProgram> programs = new LinkedHashMap<>();
    List<String> unrunnable = new ArrayList<>();
    for (Container container : containers) {
      images
          .find(container.getImage())
          .ifPresentOrElse(
              program -> programs.put(container.getName(), program),
              () -> unrunnable.add(container.getName()));
    }
    if (unrunnable.isEmpty()) {
      return programs;
    }
    String known =
        images.descriptions().isEmpty() ? "none" : String.join("; ", images.descriptions());
    String firstImage =
        containers.stream()
            .filter(c -> unrunnable.contains(c.getName()))
            .findFirst()
            .orElseThrow()
            .getImage();
    String message =
        "image \""
            + firstImage
            + "\" cannot run in local mode: local mode pulls no images and runs only"
            + " the images registered with it ("
            + known
            + ")";
    for (Container container : containers) {
      if (unrunnable.contains(container.getName())) {
        tracker.waiting(
            container.getName(),
            IMAGE_NOT_RUNNABLE,
            "image \""
                + container.getImage()
                + "\" cannot run in local mode; registered: "
                + known);
      }
    }
    throw new PodStartFailure(IMAGE_NOT_RUNNABLE, message);
  }

  private PreparedContainer prepare(
      Container container,
      LocalProgram program,
      Map<String, Path> hostVolumes,
      PodEnvironmentResolver environment)
      throws PodStartFailure {
    try {
      ContainerPathTranslator paths = ContainerPathTranslator.forContainer(container, hostVolumes);
      Map<String, String> podEnv = environment.resolve(container);
      String namespace = pod.getMetadata().getNamespace();
      String podName = pod.getMetadata().getName();
      Path home = directories.home(namespace, podName);
      Path tmp = directories.tmp(namespace, podName);
      Files.createDirectories(home);
      Files.createDirectories(tmp);

      Map<String, String> env = new LinkedHashMap<>();
      // A minimal base, never the host's environment: agent code must not see the host's secrets.
      env.put("PATH", settings.processPath());
      env.put("HOME", home.toString());
      env.put("TMPDIR", tmp.toString());
      env.put("LANG", "C.UTF-8");
      env.put("HOSTNAME", podName);
      env.putAll(paths.translateValues(podEnv));
      env.put("THREADLINE_LOCAL", "1");
      KubeletSettings.ApiAccess api = settings.apiAccess();
      if (api != null && Boolean.TRUE.equals(pod.getSpec().getAutomountServiceAccountToken())) {
        // Local mode's stand-in for the service-account token mount (a schedule's trigger Pod).
        env.put(KUBERNETES_MASTER, api.url());
        env.put(KUBERNETES_CERTS_CA_DATA, api.caCertificateData());
        env.put(KUBERNETES_AUTH_TOKEN, api.tokens().issue(namespace, serviceAccountOf(pod)));
      }

      List<String> command = paths.translate(expandAll(container.getCommand(), podEnv));
      List<String> args = paths.translate(expandAll(container.getArgs(), podEnv));
      Path workingDir =
          paths.workingDirectory(
              container.getWorkingDir(), directories.rootfs(namespace, podName), home);
      LocalContainer local =
          new LocalContainer(
              container.getImage(),
              command,
              args,
              env,
              workingDir,
              namespace,
              podName,
              container.getName());
      List<String> hostCommand = program.command(local);
      if (hostCommand == null || hostCommand.isEmpty()) {
        throw new IllegalArgumentException("no command to run for image " + container.getImage());
      }
      SandboxLimits limits =
          SandboxLimits.of(
              container, settings.podPidsLimit(), pod.getSpec().getActiveDeadlineSeconds());
      SandboxSpec sandbox =
          confined() ? sandbox(container, hostVolumes, home, tmp, workingDir, limits) : null;
      return new PreparedContainer(
          container,
          limits,
          ReadinessProbe.of(container, pod, hostVolumes),
          hostCommand,
          env,
          workingDir,
          paths,
          sandbox);
    } catch (PodStartFailure failure) {
      tracker.waiting(container.getName(), failure.reason(), failure.getMessage());
      throw failure;
    } catch (IllegalArgumentException | IOException e) {
      tracker.waiting(container.getName(), CREATE_CONTAINER_ERROR, e.getMessage());
      throw new PodStartFailure(
          CREATE_CONTAINER_ERROR, "container \"" + container.getName() + "\": " + e.getMessage());
    }
  }

  /**
   * Agent code runs confined: every Pod that does not ask for the API (a schedule's trigger Pod
   * does, with {@code automountServiceAccountToken: true}) is a sandbox when bubblewrap is here.
   */
  private boolean confined() {
    return settings.confinement().available()
        && !Boolean.TRUE.equals(pod.getSpec().getAutomountServiceAccountToken());
  }

  /** What a confined container may touch: its Pod's own folders and the volumes it mounts. */
  private SandboxSpec sandbox(
      Container container,
      Map<String, Path> hostVolumes,
      Path home,
      Path tmp,
      Path workingDir,
      SandboxLimits limits)
      throws IOException {
    String namespace = pod.getMetadata().getNamespace();
    String podName = pod.getMetadata().getName();
    List<Path> writable = new ArrayList<>(List.of(home, tmp));
    writable.add(Files.createDirectories(directories.rootfs(namespace, podName)));
    List<Path> readOnly = new ArrayList<>();
    for (VolumeMount mount : list(container.getVolumeMounts())) {
      Path volume = hostVolumes.get(mount.getName());
      if (volume != null) {
        (Boolean.TRUE.equals(mount.getReadOnly()) ? readOnly : writable).add(volume);
      }
    }
    boolean network = egressAllowed(namespace);
    List<Integer> ports =
        list(container.getPorts()).stream()
            .filter(port -> port.getProtocol() == null || "TCP".equals(port.getProtocol()))
            .map(ContainerPort::getContainerPort)
            .toList();
    Path bridge = null;
    if (!network && !ports.isEmpty()) {
      // A Unix socket path has at most 108 bytes: a short private folder, not the Pod's folder.
      bridge = Files.createTempDirectory("threadline-bridge-");
      writable.add(bridge);
    }
    if (!Files.isDirectory(workingDir)) {
      Files.createDirectories(workingDir);
    }
    long storage = limits.ephemeralBytes() > 0 ? limits.ephemeralBytes() : DEFAULT_TMPFS_BYTES;
    return new SandboxSpec(
        writable,
        readOnly,
        network,
        bridge,
        ports,
        workingDir,
        storage,
        tmpVolumeLimit(container).orElse(storage));
  }

  /** The {@code sizeLimit} of the emptyDir the container mounts at {@code /tmp}, if it has one. */
  private Optional<Long> tmpVolumeLimit(Container container) {
    return list(container.getVolumeMounts()).stream()
        .filter(mount -> "/tmp".equals(mount.getMountPath()))
        .flatMap(mount ->
            list(pod.getSpec().getVolumes()).stream()
                .filter(volume -> volume.getName().equals(mount.getName())))
        .filter(volume -> volume.getEmptyDir() != null)
        .map(volume -> volume.getEmptyDir().getSizeLimit())
        .filter(java.util.Objects::nonNull)
        .map(size -> size.getNumericalAmount().longValue())
        .filter(size -> size > 0)
        .findFirst();
  }

  /**
   * Measures the Pod's disk usage until its containers end, and evicts it once a bound is passed
   * (as a cluster's kubelet does): its processes are stopped and the Pod fails as {@code Evicted}.
   */
  private void watchStorage(Map<String, Path> hostVolumes, List<Thread> waiters) {
    String namespace = pod.getMetadata().getNamespace();
    StorageWatch watch =
        PodStorageBounds.of(
            pod, hostVolumes, directories.pod(namespace, pod.getMetadata().getName()), client);
    if (!watch.watches() || waiters.isEmpty()) {
      return;
    }
    Thread.ofVirtual()
        .name("storage-" + described)
        .start(() -> {
          try {
            while (waiters.stream().anyMatch(Thread::isAlive) && !stopped()) {
              Thread.sleep(STORAGE_CHECK);
              Optional<String> over = watch.exceeded();
              if (over.isPresent()) {
                evict(over.get());
                return;
              }
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  private void evict(String message) {
    synchronized (this) {
      if (evictionMessage == null) {
        evictionMessage = message;
      }
    }
    LOG.info("{} evicted: {}", described, message);
    stop(Stop.EVICTED);
  }

  /** Fails closed: when the policies cannot be read, the sandbox gets no network. */
  private boolean egressAllowed(String namespace) {
    // A warm-pool Pod starts before its run, and a process's network cannot change once it runs:
    // it starts with the egress its run will have (docs/warm-pools.md).
    String onClaim =
        pod.getMetadata().getAnnotations() == null
            ? null
            : pod.getMetadata().getAnnotations().get(EGRESS_ON_CLAIM);
    if (onClaim != null) {
      return "internet".equals(onClaim);
    }
    try {
      return EgressPolicy.allowsEgress(
          pod.getMetadata().getLabels(),
          client.network().v1().networkPolicies().inNamespace(namespace).list().getItems());
    } catch (RuntimeException e) {
      LOG.info(
          "{} gets no network: its NetworkPolicies cannot be read ({})", described, e.toString());
      return false;
    }
  }

  private static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : values;
  }

  private int runToEnd(PreparedContainer container) throws InterruptedException {
    ContainerProcess process = start(container);
    writer.write();
    return process == null ? -1 : awaitEnd(container, process);
  }

  /** Starts the process unless the Pod is being stopped; null when it was not started. */
  private ContainerProcess start(PreparedContainer container) {
    String name = container.name();
    String namespace = pod.getMetadata().getNamespace();
    BufferedPodLog log = logs.open(pod, name);
    synchronized (this) {
      if (stop != null) {
        log.finish();
        return null;
      }
      try {
        if (container.sandbox() != null && container.sandbox().bridged()) {
          bridges.put(
              name,
              HostPortBridge.open(container.sandbox().bridgeFolder(), container.sandbox().ports()));
        }
        ResourceControl.Bounds bounded =
            settings.resources().bound(boundsName(name), container.limits());
        bounds.put(name, bounded);
        Optional<CommandGroup> commands = bounded.commandGroup();
        Map<String, String> env = new LinkedHashMap<>(container.env());
        commands.ifPresent(group -> env.put(CommandGroups.VARIABLE, group.folder().toString()));
        SandboxSpec sandbox =
            commands
                .filter(group -> container.sandbox() != null)
                .map(group ->
                    container
                        .sandbox()
                        .withCommandCgroup(group.folder(), group.outsideProgramsGroup()))
                .orElse(container.sandbox());
        ContainerProcess process =
            ContainerProcess.start(
                bounded.wrap(
                    sandbox == null
                        ? container.hostCommand()
                        : new Bubblewrap(settings.confinement())
                            .wrap(sandbox, container.hostCommand())),
                env,
                container.workingDir(),
                log,
                directories.log(namespace, pod.getMetadata().getName(), name),
                described + "/" + name);
        running.put(name, process);
        Optional<ReadinessProbe> probe = container.readiness();
        tracker.started(name, process.pid(), process.startedAt(), probe.isPresent());
        LOG.info("{} container {} started as pid {}", described, name, process.pid());
        probe.ifPresent(readiness -> awaitReady(name, process, readiness));
        return process;
      } catch (IOException e) {
        log.finish();
        closeBridge(name);
        closeBounds(name);
        Instant now = Instant.now();
        tracker.terminated(
            name,
            0,
            128,
            "StartError",
            "could not start " + container.hostCommand().getFirst() + ": " + e.getMessage(),
            now,
            now);
        LOG.info("{} container {} could not start: {}", described, name, e.getMessage());
        return null;
      }
    }
  }

  /** Marks the container ready (and writes the status) once its readiness probe succeeds. */
  private void awaitReady(String name, ContainerProcess process, ReadinessProbe probe) {
    Thread.ofVirtual()
        .name("ready-" + described + "-" + name)
        .start(() -> {
          try {
            if (probe.await(process::alive)) {
              tracker.ready(name, Instant.now());
              writer.write();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  /** A name for the container's bounds, unique among the kubelet's containers. */
  private String boundsName(String container) {
    String uid = pod.getMetadata().getUid();
    String owner =
        uid != null ? uid : pod.getMetadata().getNamespace() + "-" + pod.getMetadata().getName();
    return (owner + "-" + container).replaceAll("[^A-Za-z0-9-]", "_");
  }

  /** Kills what the container left in its bounds; true if its memory limit killed a process. */
  private boolean closeBounds(String container) {
    ResourceControl.Bounds bounded;
    synchronized (this) {
      bounded = bounds.remove(container);
    }
    if (bounded == null) {
      return false;
    }
    boolean outOfMemory = bounded.outOfMemory();
    bounded.close();
    return outOfMemory;
  }

  private void closeBridge(String container) {
    HostPortBridge bridge;
    synchronized (this) {
      bridge = bridges.remove(container);
    }
    if (bridge != null) {
      bridge.close();
    }
  }

  private int awaitEnd(PreparedContainer container, ContainerProcess process) {
    int exitCode;
    try {
      exitCode = process.awaitExit();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.terminate(Duration.ZERO);
      exitCode = 137;
    }
    synchronized (this) {
      running.remove(container.name());
    }
    closeBridge(container.name());
    boolean outOfMemory = closeBounds(container.name());
    tracker.terminated(
        container.name(),
        process.pid(),
        exitCode,
        outOfMemory && exitCode != 0 ? OOM_KILLED : null,
        terminationMessage(container, exitCode),
        process.startedAt(),
        Instant.now());
    LOG.info("{} container {} ended with exit code {}", described, container.name(), exitCode);
    writer.write();
    return exitCode;
  }

  /**
   * Kubernetes' rules: the termination-message file if there is one, else the log's tail if the
   * policy says so.
   */
  private String terminationMessage(PreparedContainer container, int exitCode) {
    String path = container.spec().getTerminationMessagePath();
    if (path != null) {
      String translated = container.paths().translate(path);
      if (!translated.equals(path)) {
        try {
          Path file = Path.of(translated);
          if (Files.isRegularFile(file)) {
            return tail(Files.readAllBytes(file));
          }
        } catch (IOException e) {
          LOG.debug(
              "{} termination message of {} unreadable: {}",
              described,
              container.name(),
              e.toString());
        }
      }
    }
    if (exitCode != 0
        && "FallbackToLogsOnError".equals(container.spec().getTerminationMessagePolicy())) {
      return logs.find(
              pod.getMetadata().getNamespace(), pod.getMetadata().getName(), container.name())
          .map(log -> tail(log.snapshot()))
          .orElse(null);
    }
    return null;
  }

  private static String tail(byte[] bytes) {
    int from = Math.max(0, bytes.length - TERMINATION_MESSAGE_LIMIT);
    String text = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8).strip();
    return text.isEmpty() ? null : text;
  }

  /**
   * The Pod's spec changed while it runs: {@code activeDeadlineSeconds} is the one field that
   * matters here (a warm-pool Pod gets its run's deadline when it is claimed).
   */
  void specChanged(Pod updated) {
    Long seconds = updated.getSpec() == null ? null : updated.getSpec().getActiveDeadlineSeconds();
    Instant start;
    synchronized (this) {
      if (seconds == null || seconds.equals(deadlineSeconds) || startedAt == null || stop != null) {
        return;
      }
      if (deadline != null) {
        deadline.cancel(false);
      }
      start = startedAt;
    }
    scheduleDeadline(start, seconds);
  }

  private void scheduleDeadline(Instant start, Long seconds) {
    synchronized (this) {
      startedAt = start;
      deadlineSeconds = seconds;
    }
    if (seconds == null) {
      return;
    }
    Duration remaining = Duration.between(Instant.now(), start.plusSeconds(seconds));
    synchronized (this) {
      deadline =
          scheduler.schedule(
              () -> {
                LOG.info("{} exceeded its activeDeadlineSeconds ({}s)", described, seconds);
                stop(Stop.DEADLINE);
              },
              Math.max(0, remaining.toMillis()),
              TimeUnit.MILLISECONDS);
    }
  }

  private synchronized boolean stopped() {
    return stop != null;
  }

  private void finishStopped() {
    finishStoppedOr(PodStatusTracker.PHASE_FAILED, null, null);
  }

  /** The Pod's end: a deadline decides it if one fired, otherwise the given outcome. */
  private void finishStoppedOr(String phase, String reason, String message) {
    Stop why;
    synchronized (this) {
      why = stop;
    }
    if (why == Stop.DEADLINE) {
      finish(PodStatusTracker.PHASE_FAILED, DEADLINE_EXCEEDED, DEADLINE_MESSAGE);
    } else if (why == Stop.EVICTED) {
      String evicted;
      synchronized (this) {
        evicted = evictionMessage;
      }
      finish(PodStatusTracker.PHASE_FAILED, EVICTED, evicted);
    } else {
      finish(phase, reason, message);
    }
  }

  private void finish(String phase, String reason, String message) {
    tracker.finished(phase, reason, message, Instant.now());
    LOG.info("{} ended: {}{}", described, phase, reason == null ? "" : " (" + reason + ")");
    writer.write();
  }

  private record PreparedContainer(
      Container spec,
      SandboxLimits limits,
      Optional<ReadinessProbe> readiness,
      List<String> hostCommand,
      Map<String, String> env,
      Path workingDir,
      ContainerPathTranslator paths,
      SandboxSpec sandbox) {
    String name() {
      return spec.getName();
    }
  }

  private static List<String> expandAll(List<String> values, Map<String, String> env) {
    if (values == null) {
      return List.of();
    }
    return values.stream().map(value -> PodEnvironmentResolver.expand(value, env)).toList();
  }

  private static String serviceAccountOf(Pod pod) {
    String name = pod.getSpec().getServiceAccountName();
    return name == null || name.isBlank() ? "default" : name;
  }
}
