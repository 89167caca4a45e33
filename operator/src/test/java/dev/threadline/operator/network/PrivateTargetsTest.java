package dev.threadline.operator.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrivateTargetsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "192.0.0.1",
        "192.0.0.255",
        "198.18.0.1",
        "198.19.255.254",
        "240.0.0.1",
        "255.255.255.255",
        "64:ff9b::a9fe:a9fe",
        "64:ff9b::7f00:1"
      })
  void reservedBenchmarkingAndNat64AddressesArePrivate(String address) throws Exception {
    assertThat(PrivateTargets.isPrivate(InetAddress.getByName(address))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"192.0.1.1", "198.17.255.255", "198.20.0.1", "64:ff9c::1"})
  void theirNeighboursAreNot(String address) throws Exception {
    assertThat(PrivateTargets.isPrivate(InetAddress.getByName(address))).isFalse();
  }

  @Test
  void privateAndMetadataAddressesArePrivatePublicOnesAreNot() throws Exception {
    for (String address :
        List.of(
            "127.0.0.1",
            "::1",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "fe80::1",
            "fd00::1",
            "fc00::1",
            "100.64.0.1",
            "224.0.0.1",
            "::ffff:127.0.0.1")) {
      assertThat(PrivateTargets.isPrivate(InetAddress.getByName(address))).as(address).isTrue();
    }
    for (String address :
        List.of("93.184.216.34", "8.8.8.8", "2606:4700::1111", "100.128.0.1", "172.32.0.1")) {
      assertThat(PrivateTargets.isPrivate(InetAddress.getByName(address))).as(address).isFalse();
    }
    assertThat(
            PrivateTargets.refusal(
                "hook.test",
                InetAddress.getByName("127.0.0.1"),
                "THREADLINE_WEBHOOK_ALLOW_PRIVATE_TARGETS"))
        .contains("resolves to a private address (127.0.0.1)")
        .contains("THREADLINE_WEBHOOK_ALLOW_PRIVATE_TARGETS");
  }
}
