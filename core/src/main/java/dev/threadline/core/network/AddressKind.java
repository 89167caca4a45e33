package dev.threadline.core.network;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * What an IP address reaches, for calls to URLs a user chose (webhooks, http MCP servers). IPv6
 * forms that carry an IPv4 address (IPv4-mapped {@code ::ffff:a.b.c.d}, IPv4-translated {@code
 * ::ffff:0:a.b.c.d}, IPv4-compatible {@code ::a.b.c.d}, 6to4 {@code 2002:aabb:ccdd::}) are judged
 * by that IPv4 address, so {@code [::ffff:127.0.0.1]} is loopback.
 */
public enum AddressKind {
  PUBLIC("a public address"),
  LOOPBACK("a loopback address"),
  /**
   * Site-local (10/8, 172.16/12, 192.168/16, fec0::/10), unique-local (fc00::/7), carrier-grade NAT
   * (100.64/10), IETF protocol assignments (192.0.0/24), benchmarking (198.18/15), NAT64
   * (64:ff9b::/96 and 64:ff9b:1::/48, which reach any IPv4 address through a translator).
   */
  PRIVATE("a private-network address"),
  /** 169.254/16 (169.254.169.254 is the cloud metadata endpoint), fe80::/10, fd00:ec2::254. */
  LINK_LOCAL("a link-local address (where cloud metadata endpoints are)"),
  /** 0.0.0.0/8 and :: (which reach this host), multicast, 240/4 and the broadcast address. */
  UNROUTABLE("an unspecified, multicast, broadcast or reserved address");

  private static final byte[] EC2_METADATA_V6 = {
    (byte) 0xfd, 0, 0x0e, (byte) 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54
  };

  private final String description;

  AddressKind(String description) {
    this.description = description;
  }

  /** "a loopback address", as a refusal says it. */
  public String description() {
    return description;
  }

  public static AddressKind of(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (address instanceof Inet4Address) {
      return ofIpv4(bytes);
    }
    if (address instanceof Inet6Address) {
      return ofIpv6(bytes);
    }
    return UNROUTABLE;
  }

  private static AddressKind ofIpv4(byte[] bytes) {
    int first = bytes[0] & 0xff;
    int second = bytes[1] & 0xff;
    int third = bytes[2] & 0xff;
    if (first == 127) {
      return LOOPBACK;
    }
    if (first == 169 && second == 254) {
      return LINK_LOCAL;
    }
    if (first == 0 || first >= 224) {
      return UNROUTABLE;
    }
    if (first == 10
        || (first == 172 && second >= 16 && second <= 31)
        || (first == 192 && second == 168)
        || (first == 100 && second >= 64 && second <= 127)
        || (first == 192 && second == 0 && third == 0)
        || (first == 198 && (second == 18 || second == 19))) {
      return PRIVATE;
    }
    return PUBLIC;
  }

  private static AddressKind ofIpv6(byte[] bytes) {
    byte[] embedded = embeddedIpv4(bytes);
    if (embedded != null) {
      return ofIpv4(embedded);
    }
    if (isZero(bytes, 0, 15)) {
      // ::1 is loopback, :: the unspecified address.
      return bytes[15] == 1 ? LOOPBACK : UNROUTABLE;
    }
    int first = bytes[0] & 0xff;
    int second = bytes[1] & 0xff;
    if (Arrays.equals(bytes, EC2_METADATA_V6) || (first == 0xfe && (second & 0xc0) == 0x80)) {
      return LINK_LOCAL;
    }
    if (first == 0xff) {
      return UNROUTABLE;
    }
    if ((first & 0xfe) == 0xfc || (first == 0xfe && (second & 0xc0) == 0xc0) || isNat64(bytes)) {
      return PRIVATE;
    }
    return PUBLIC;
  }

  /** The IPv4 address an IPv6 address carries, or null. */
  private static byte[] embeddedIpv4(byte[] bytes) {
    boolean mapped =
        isZero(bytes, 0, 10) && (bytes[10] & 0xff) == 0xff && (bytes[11] & 0xff) == 0xff;
    boolean translated =
        isZero(bytes, 0, 8)
            && (bytes[8] & 0xff) == 0xff
            && (bytes[9] & 0xff) == 0xff
            && isZero(bytes, 10, 12);
    // ::a.b.c.d (deprecated), but not :: or ::1, which are their own.
    boolean compatible = isZero(bytes, 0, 12) && !isZero(bytes, 12, 15);
    if (mapped || translated || compatible) {
      return new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]};
    }
    if ((bytes[0] & 0xff) == 0x20 && (bytes[1] & 0xff) == 0x02) {
      return new byte[] {bytes[2], bytes[3], bytes[4], bytes[5]};
    }
    return null;
  }

  private static boolean isNat64(byte[] bytes) {
    boolean prefix =
        bytes[0] == 0 && bytes[1] == 0x64 && (bytes[2] & 0xff) == 0xff && (bytes[3] & 0xff) == 0x9b;
    // 64:ff9b::/96 (well-known) and 64:ff9b:1::/48 (local use).
    return prefix && ((bytes[4] == 0 && bytes[5] == 1) || isZero(bytes, 4, 12));
  }

  private static boolean isZero(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
