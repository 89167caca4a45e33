package dev.threadline.operator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.operator.container.ContainerSettings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxPortsTest {

  @TempDir Path leaseFolder;
  private final AtomicLong nanos = new AtomicLong();

  @Test
  void onAPodNetworkEveryContainerUsesTheFirstPort() {
    SandboxPorts ports =
        new SandboxPorts(ContainerSettings.defaults(), port -> false, null, nanos::get);

    assertThat(ports.allocate("containers", "a/one", Map.of("b/two", 8080))).contains(8080);
  }

  @Test
  void onASharedNetworkPortsAreUniqueAndSkipPortsTakenOnTheHost() {
    ContainerSettings shared = ContainerSettings.defaults().sharingNetwork(9000, 9003, "127.0.0.1");
    SandboxPorts ports =
        new SandboxPorts(shared, port -> port != 9001, new HostPortLeases(leaseFolder), nanos::get);
    Map<String, Integer> held = new HashMap<>();
    held.put("ns/held", 9000);
    held.put("ns/a", null);
    held.put("ns/b", null);
    held.put("ns/c", null);

    assertThat(ports.allocate("containers", "ns/a", held)).contains(9002);
    // Not yet in any status, but handed out: the next container gets another port.
    assertThat(ports.allocate("containers", "ns/b", held)).contains(9003);
    assertThat(ports.allocate("containers", "ns/c", held)).isEmpty();
    // Asking again for the same container gives it the same port back, not a second one.
    assertThat(ports.allocate("containers", "ns/b", held)).contains(9003);
    // Gone from the view just after it was handed out: its object may not show yet.
    held.remove("ns/b");
    assertThat(ports.allocate("containers", "ns/c", held)).isEmpty();
    // Gone for longer: its port is free again.
    nanos.addAndGet(SandboxPorts.SHOWN_WITHIN.toNanos());
    assertThat(ports.allocate("containers", "ns/c", held)).contains(9003);
  }

  @Test
  void aPortASandboxFoundTakenIsHandedToNoSandboxForAWhile() {
    ContainerSettings shared = ContainerSettings.defaults().sharingNetwork(9000, 9002, "127.0.0.1");
    SandboxPorts ports =
        new SandboxPorts(shared, port -> true, new HostPortLeases(leaseFolder), nanos::get);
    assertThat(ports.allocate("runs", "ns/run-1", Map.of())).contains(9000);

    // Its runner could not listen there: the same sandbox, made again, gets another port ...
    ports.takenByAnother("runs", "ns/run-1");
    assertThat(ports.allocate("runs", "ns/run-1", Map.of("ns/run-1", 9000))).contains(9001);
    // ... and so does every other sandbox, though the port passes the bind test now.
    assertThat(ports.allocate("pools", "ns/pool-1", Map.of())).contains(9002);
    assertThat(ports.allocate("containers", "ns/c", Map.of())).isEmpty();

    nanos.addAndGet(SandboxPorts.AVOIDED_FOR.toNanos());
    assertThat(ports.allocate("containers", "ns/c", Map.of())).contains(9000);
  }

  @Test
  void runsPoolsAndContainersNeverShareAPortThoughEachSeesOnlyItsOwn() {
    ContainerSettings shared = ContainerSettings.defaults().sharingNetwork(9000, 9009, "127.0.0.1");
    SandboxPorts ports =
        new SandboxPorts(shared, port -> true, new HostPortLeases(leaseFolder), nanos::get);

    int pool = ports.allocate("pools", "ns/pool-1", Map.of("ns/pool-1", 0)).orElseThrow();
    int run = ports.allocate("runs", "ns/run-1", Map.of()).orElseThrow();
    int container = ports.allocate("containers", "ns/c", Map.of("ns/c", 0)).orElseThrow();

    assertThat(List.of(pool, run, container)).doesNotHaveDuplicates();
  }

  @Test
  void aWaiterIsToldWhatCanFreeAPortWhenNoneIsFree() {
    ContainerSettings shared = ContainerSettings.defaults().sharingNetwork(9000, 9001, "127.0.0.1");
    SandboxPorts ports =
        new SandboxPorts(shared, port -> true, new HostPortLeases(leaseFolder), nanos::get);
    ports.signalsReleases("runs");
    List<String> woken = new java.util.ArrayList<>();
    ports.onRelease(() -> woken.add("waiter"));

    assertThat(ports.choose("runs", "ns/a", Map.of()).port()).contains(9000);
    nanos.addAndGet(SandboxPorts.SHOWN_WITHIN.toNanos());
    assertThat(ports.choose("runs", "ns/b", Map.of("ns/a", 9000)).port()).contains(9001);
    nanos.addAndGet(SandboxPorts.SHOWN_WITHIN.toNanos() / 2);

    // Both held by runs, whose view signals: only 9001, handed out 5 s ago, frees by time alone.
    SandboxPorts.Choice none =
        ports.choose("runs", "ns/c", Map.of("ns/a", 9000, "ns/b", 9001, "ns/c", 0));
    assertThat(none.port()).isEmpty();
    assertThat(none.timedRelease()).contains(SandboxPorts.SHOWN_WITHIN.dividedBy(2));
    assertThat(none.heldUnseen()).isFalse();

    // A's sandbox goes: its view says so, the waiter is woken and gets its port.
    ports.released();
    assertThat(woken).containsExactly("waiter");
    assertThat(ports.choose("runs", "ns/c", Map.of("ns/b", 9001, "ns/c", 0)).port()).contains(9000);

    // A port taken by a domain that does not signal, or by a program, is held unseen.
    SandboxPorts containers =
        new SandboxPorts(
            shared, port -> true, new HostPortLeases(leaseFolder.resolve("c")), nanos::get);
    SandboxPorts.Choice full =
        containers.choose("containers", "ns/d", Map.of("ns/e", 9000, "ns/f", 9001));
    assertThat(full.port()).isEmpty();
    assertThat(full.heldUnseen()).isTrue();
    SandboxPorts bound =
        new SandboxPorts(
            shared, port -> false, new HostPortLeases(leaseFolder.resolve("b")), nanos::get);
    assertThat(bound.choose("runs", "ns/g", Map.of()).heldUnseen()).isTrue();
  }

  @Test
  void aPortLeasedByAnotherOperatorOnTheHostIsTaken() {
    ContainerSettings shared = ContainerSettings.defaults().sharingNetwork(9000, 9001, "127.0.0.1");
    SandboxPorts first =
        new SandboxPorts(shared, port -> true, new HostPortLeases(leaseFolder), nanos::get);
    SandboxPorts second =
        new SandboxPorts(shared, port -> true, new HostPortLeases(leaseFolder), nanos::get);

    assertThat(first.allocate("runs", "a/run", Map.of())).contains(9000);
    // Another local mode (here: another operator in this JVM) sees the lease, not only binds.
    assertThat(second.allocate("runs", "b/run", Map.of())).contains(9001);
    assertThat(second.allocate("runs", "b/other", Map.of("b/run", 9001))).isEmpty();

    // The first run's Pod is gone: its lease goes with it, and the port is anyone's again.
    nanos.addAndGet(SandboxPorts.SHOWN_WITHIN.toNanos());
    assertThat(first.allocate("runs", "a/next", Map.of())).contains(9000);
    assertThat(first.allocate("runs", "a/again", Map.of("a/next", 9000))).isEmpty();
  }

  @Test
  void aPortAnotherLocalModeLeasedIsNeverProbedAndAFailedProbeKeepsNoLease() {
    ContainerSettings shared = ContainerSettings.defaults().sharingNetwork(9000, 9002, "127.0.0.1");
    SandboxPorts first =
        new SandboxPorts(shared, port -> true, new HostPortLeases(leaseFolder), nanos::get);
    // The probe binds the port for a moment: on a leased port it could take the port from the
    // sandbox binding it just then.
    List<Integer> probed = new java.util.ArrayList<>();
    SandboxPorts second =
        new SandboxPorts(
            shared,
            port -> {
              probed.add(port);
              return port != 9001; // another program listens on 9001
            },
            new HostPortLeases(leaseFolder),
            nanos::get);
    SandboxPorts third =
        new SandboxPorts(shared, port -> true, new HostPortLeases(leaseFolder), nanos::get);

    assertThat(first.allocate("runs", "a/run", Map.of())).contains(9000);
    assertThat(second.allocate("runs", "b/run", Map.of())).contains(9002);
    assertThat(probed).containsExactly(9001, 9002);
    // 9001 failed the second's probe: its lease was let go, so the third may have it.
    assertThat(third.allocate("runs", "c/run", Map.of())).contains(9001);
  }

  @Test
  void portRangesAreReadFromTheEnvironment() {
    ContainerSettings settings =
        ContainerSettings.fromEnvironment(
            Map.of(
                "THREADLINE_CONTAINER_PORTS",
                "8100-8180",
                "THREADLINE_CONTAINER_SHARED_NETWORK",
                "true",
                "THREADLINE_CONTAINER_BIND_ADDRESS",
                "127.0.0.1"));

    assertThat(settings).isEqualTo(new ContainerSettings(8100, 8180, true, "127.0.0.1"));
    assertThat(ContainerSettings.defaults())
        .isEqualTo(new ContainerSettings(8080, 8180, false, "0.0.0.0"));
  }

  @Test
  void theFileApisCallersAreTheApiServerPodsOfTheReleaseNamespace() {
    ContainerSettings defaults =
        ContainerSettings.fromEnvironment(Map.of("THREADLINE_LEASE_NAMESPACE", "tl-system"));
    assertThat(defaults.apiServerNamespace()).isEqualTo("tl-system");
    assertThat(defaults.apiServerPodLabels())
        .containsExactly(Map.entry("app.kubernetes.io/component", "api-server"));

    ContainerSettings given =
        ContainerSettings.fromEnvironment(
            Map.of(
                "THREADLINE_API_SERVER_NAMESPACE",
                "platform",
                "THREADLINE_LEASE_NAMESPACE",
                "tl-system",
                "THREADLINE_API_SERVER_POD_LABELS",
                "app.kubernetes.io/component=api-server, app.kubernetes.io/instance=tl"));
    assertThat(given.apiServerNamespace()).isEqualTo("platform");
    assertThat(given.apiServerPodLabels())
        .containsOnly(
            Map.entry("app.kubernetes.io/component", "api-server"),
            Map.entry("app.kubernetes.io/instance", "tl"));
    assertThat(given.sharingNetwork(8100, 8180, "127.0.0.1").apiServerPodLabels())
        .isEqualTo(given.apiServerPodLabels());

    assertThatThrownBy(() ->
            ContainerSettings.fromEnvironment(
                Map.of("THREADLINE_API_SERVER_POD_LABELS", "api-server")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("THREADLINE_API_SERVER_POD_LABELS");
  }
}
