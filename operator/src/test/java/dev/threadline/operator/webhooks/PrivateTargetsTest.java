package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
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
}
