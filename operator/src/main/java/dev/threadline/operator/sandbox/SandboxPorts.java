package dev.threadline.operator.sandbox;

import dev.threadline.operator.container.ContainerSettings;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Chooses the port of a sandbox's API (a run's, a pool's or a container's). On a Pod network every
 * container may use the range's first port. On a shared network one instance serves the whole
 * operator: a port is free when no sandbox holds it — as each kind's own view says (its Pods, or
 * its containers' statuses), plus the ports handed out to every kind whose objects that view has
 * not shown yet —, no other process of the host has leased it ({@link HostPortLeases}: another
 * local mode), and it can be bound here (a program of anyone else's listens on it).
 *
 * <p>A kind (a <em>domain</em>: runs, pools, containers) releases its ports by its view: a key
 * handed out at least {@link #SHOWN_WITHIN} ago and not in the view is gone, and its port free
 * again. (Younger, its object may just not be in the view yet.)
 *
 * <p>A sandbox that finds no free port waits for one ({@link #choose}): a domain whose view tells
 * when a sandbox of it goes ({@link #signalsReleases}) calls {@link #released}, which wakes the
 * waiters ({@link #onRelease}); a port avoided or handed out a moment ago frees at a known instant
 * ({@link Choice#timedRelease}); only a port held where no view shows it goes (another process's
 * lease, a program of anyone else's, a domain that does not signal) is looked at again later.
 */
public final class SandboxPorts {
  private final ContainerSettings settings;
  private final IntPredicate bindable;
  private final HostPortLeases leases;
  private final LongSupplier nanoTime;

  /** How soon an object made with a port handed out shows in its kind's view. */
  static final Duration SHOWN_WITHIN = Duration.ofSeconds(10);

  /**
   * How long a port a sandbox found taken is handed to no sandbox (its holder may keep it; one that
   * listens fails the bind test anyway, one that does not would pass it).
   */
  static final Duration AVOIDED_FOR = Duration.ofMinutes(1);

  private record HandedOut(int port, long atNanos) {}

  /** Port → when a sandbox found it taken by another program. */
  private final Map<Integer, Long> avoided = new HashMap<>();

  /** Domain → (key → port handed out). */
  private final Map<String, Map<String, HandedOut>> handedOut = new HashMap<>();

  /** Domains whose views call {@link #released} when a sandbox of theirs goes. */
  private final Set<String> signalling = ConcurrentHashMap.newKeySet();

  /** Told when a sandbox went: a waiter may find a free port now. */
  private final List<Runnable> releaseListeners = new CopyOnWriteArrayList<>();

  /**
   * What {@link #choose} found.
   *
   * @param port the port handed out; empty when every port of the range is taken
   * @param timedRelease when none is free: how soon a port frees by time alone (one avoided, or
   *     handed out to an object its view did not show yet); empty when none will
   * @param heldUnseen when none is free: whether a port is held where no {@link #released} signal
   *     will tell when it frees (another process's lease, a program that listens on it, a domain
   *     that does not signal), so a waiter must look again later
   */
  public record Choice(
      Optional<Integer> port, Optional<Duration> timedRelease, boolean heldUnseen) {
    static Choice of(int port) {
      return new Choice(Optional.of(port), Optional.empty(), false);
    }
  }

  public SandboxPorts(ContainerSettings settings) {
    this(
        settings,
        port -> canBind(settings.bindAddress(), port),
        settings.sharedNetwork() ? HostPortLeases.forThisHost() : null,
        System::nanoTime);
  }

  SandboxPorts(
      ContainerSettings settings,
      IntPredicate bindable,
      HostPortLeases leases,
      LongSupplier nanoTime) {
    this.settings = settings;
    this.bindable = bindable;
    this.leases = leases;
    this.nanoTime = nanoTime;
  }

  /**
   * A port for {@code key} ({@code namespace/name}) of {@code domain}, given the ports that
   * domain's objects hold now.
   *
   * @param held key → its recorded port (null when none yet), for every object of the domain that
   *     exists
   * @return empty when every port of the range is taken
   */
  public Optional<Integer> allocate(String domain, String key, Map<String, Integer> held) {
    return choose(domain, key, held).port();
  }

  /**
   * As {@link #allocate}, and when no port is free, what could free one.
   *
   * @param held key → its recorded port (null when none yet), for every object of the domain that
   *     exists
   */
  public synchronized Choice choose(String domain, String key, Map<String, Integer> held) {
    if (!settings.sharedNetwork()) {
      return Choice.of(settings.firstPort());
    }
    long now = nanoTime.getAsLong();
    Map<String, HandedOut> own = handedOut.computeIfAbsent(domain, any -> new HashMap<>());
    own.entrySet()
        .removeIf(entry -> {
          boolean gone =
              !held.containsKey(entry.getKey())
                  && !entry.getKey().equals(key)
                  && now - entry.getValue().atNanos() >= SHOWN_WITHIN.toNanos();
          if (gone) {
            release(entry.getValue().port());
          }
          return gone;
        });
    avoided.values().removeIf(since -> now - since >= AVOIDED_FOR.toNanos());
    Set<Integer> taken = new HashSet<>(avoided.keySet());
    // Ports whose release some view will signal; any other taken port is held unseen.
    Set<Integer> seen = new HashSet<>();
    boolean signals = signalling.contains(domain);
    held.forEach((other, port) -> {
      if (!other.equals(key) && port != null) {
        taken.add(port);
        if (signals) {
          seen.add(port);
        }
      }
    });
    long nextTimedRelease = Long.MAX_VALUE;
    for (Map.Entry<String, Map<String, HandedOut>> kind : handedOut.entrySet()) {
      for (Map.Entry<String, HandedOut> other : kind.getValue().entrySet()) {
        if (kind.getKey().equals(domain) && other.getKey().equals(key)) {
          continue;
        }
        HandedOut given = other.getValue();
        taken.add(given.port());
        long age = now - given.atNanos();
        if (age < SHOWN_WITHIN.toNanos()) {
          nextTimedRelease = Math.min(nextTimedRelease, SHOWN_WITHIN.toNanos() - age);
        }
        if (signalling.contains(kind.getKey())) {
          seen.add(given.port());
        }
      }
    }
    for (long since : avoided.values()) {
      nextTimedRelease = Math.min(nextTimedRelease, AVOIDED_FOR.toNanos() - (now - since));
    }
    seen.addAll(avoided.keySet());
    Integer previous = own.containsKey(key) ? own.get(key).port() : null;
    if (previous != null && !taken.contains(previous)) {
      return Choice.of(previous); // asked again before its object showed it: the same port
    }
    boolean heldUnseen = false;
    for (int port = settings.firstPort(); port <= settings.lastPort(); port++) {
      if (taken.contains(port)) {
        heldUnseen |= !seen.contains(port);
        continue;
      }
      // The lease first, then the probe: a probe binds the port for a moment, and must never do so
      // to a port another local mode leased, whose sandbox may be binding it at that moment.
      boolean heldBefore = leases != null && leases.holds(port);
      if (leases != null && !leases.acquire(port)) {
        heldUnseen = true;
        continue;
      }
      if (!bindable.test(port)) {
        if (leases != null && !heldBefore) {
          leases.release(port);
        }
        heldUnseen = true;
        continue;
      }
      if (previous != null) {
        release(previous);
      }
      own.put(key, new HandedOut(port, now));
      return Choice.of(port);
    }
    return new Choice(
        Optional.empty(),
        nextTimedRelease == Long.MAX_VALUE
            ? Optional.empty()
            : Optional.of(Duration.ofNanos(Math.max(0, nextTimedRelease))),
        heldUnseen);
  }

  /** {@code domain}'s view calls {@link #released} whenever a sandbox of it goes. */
  public void signalsReleases(String domain) {
    signalling.add(domain);
  }

  /** {@code listener} is told whenever a sandbox went (a waiter may find a port now). */
  public void onRelease(Runnable listener) {
    releaseListeners.add(listener);
  }

  /** A sandbox of a signalling domain left its view: its port may be free. */
  public void released() {
    releaseListeners.forEach(Runnable::run);
  }

  /**
   * {@link #released} as a domain's informer's delete filter (an {@code OnDeleteFilter}): it lets
   * every deletion through.
   */
  public boolean released(Object gone, Boolean finalStateUnknown) {
    released();
    return true;
  }

  /**
   * The sandbox of {@code key} of {@code domain} could not listen on the port it was handed:
   * another program holds it. The key's next allocation gets another port, and no sandbox gets this
   * one for {@link #AVOIDED_FOR}.
   */
  public synchronized void takenByAnother(String domain, String key) {
    Map<String, HandedOut> own = handedOut.get(domain);
    HandedOut given = own == null ? null : own.remove(key);
    if (given != null) {
      release(given.port());
      avoided.put(given.port(), nanoTime.getAsLong());
    }
  }

  /**
   * A port for the sandbox Pod {@code namespace/name} of {@code domain}, given that domain's
   * sandbox Pods (those of them that name a port hold it).
   */
  public Choice choose(String domain, String namespace, String name, Stream<Pod> sandboxes) {
    Map<String, Integer> held =
        sandboxes
            .filter(pod -> SandboxPod.port(pod).isPresent())
            .collect(
                Collectors.toMap(
                    pod -> pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
                    pod -> SandboxPod.port(pod).orElseThrow(),
                    (a, b) -> a));
    return choose(domain, namespace + "/" + name, held);
  }

  private void release(int port) {
    if (leases != null) {
      leases.release(port);
    }
  }

  /**
   * Whether the runner could listen on the port now: as it does, with {@code SO_REUSEADDR}, so that
   * a port whose last sandbox just closed (its connections in TIME_WAIT) is free again.
   */
  private static boolean canBind(String address, int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getByName(address), port));
      return true;
    } catch (IOException taken) {
      return false;
    }
  }
}
