package dev.threadline.operator.network;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Keeps calls to user-given URLs (webhooks, http MCP servers) from reaching into the cluster or the
 * cloud's metadata service: a host that resolves to a loopback, wildcard, link-local
 * (169.254.0.0/16 with 169.254.169.254, fe80::/10), site-local (10/8, 172.16/12, 192.168/16,
 * fec0::/10), unique-local (fc00::/7), carrier-grade NAT (100.64.0.0/10), "this network"
 * (0.0.0.0/8), IETF protocol assignments (192.0.0.0/24), benchmarking (198.18.0.0/15), reserved
 * (240.0.0.0/4, broadcast included), NAT64 (64:ff9b::/96, which reaches any IPv4 address through a
 * translator) or multicast address is refused. Their client checks the addresses it connects to
 * ({@link PublicAddressResolver}), not an earlier lookup's.
 */
public final class PrivateTargets {
  private PrivateTargets() {}

  /**
   * Why {@code host}, resolved to the private {@code address}, may not be called; {@code setting}
   * names what would allow it.
   */
  static String refusal(String host, InetAddress address, String setting) {
    return "the host "
        + host
        + " resolves to a private address ("
        + address.getHostAddress()
        + "); calls to private networks are off ("
        + setting
        + ")";
  }

  static boolean isPrivate(InetAddress address) {
    if (address.isLoopbackAddress()
        || address.isAnyLocalAddress()
        || address.isLinkLocalAddress()
        || address.isSiteLocalAddress()
        || address.isMulticastAddress()) {
      return true;
    }
    byte[] bytes = address.getAddress();
    if (address instanceof Inet4Address) {
      int first = bytes[0] & 0xff;
      int second = bytes[1] & 0xff;
      int third = bytes[2] & 0xff;
      return first == 0
          || (first == 100 && second >= 64 && second <= 127)
          || (first == 192 && second == 0 && third == 0)
          || (first == 198 && (second == 18 || second == 19))
          || first >= 240;
    }
    if (address instanceof Inet6Address) {
      return (bytes[0] & 0xfe) == 0xfc || isNat64(bytes);
    }
    return false;
  }

  /** 64:ff9b::/96, the well-known NAT64 prefix. */
  private static boolean isNat64(byte[] bytes) {
    byte[] prefix = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
