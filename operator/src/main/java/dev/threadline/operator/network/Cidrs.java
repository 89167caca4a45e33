package dev.threadline.operator.network;

import java.util.List;
import java.util.regex.Pattern;

/** Checks the shape of address ranges written in configuration, without any name lookup. */
public final class Cidrs {
  private static final Pattern IPV4 =
      Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]{2,45}");

  private Cidrs() {}

  /**
   * @return {@code cidrs}, copied
   * @throws IllegalArgumentException naming {@code variable} when one is not a CIDR
   */
  public static List<String> requireAll(List<String> cidrs, String variable) {
    List<String> copy = cidrs == null ? List.of() : List.copyOf(cidrs);
    for (String cidr : copy) {
      if (!isCidr(cidr)) {
        throw new IllegalArgumentException(
            variable + " must list CIDRs like 10.42.0.0/16 or fd00::/8, got: " + cidr);
      }
    }
    return copy;
  }

  static boolean isCidr(String text) {
    int slash = text.indexOf('/');
    if (slash < 0) {
      return false;
    }
    String address = text.substring(0, slash);
    int bits;
    try {
      bits = Integer.parseInt(text.substring(slash + 1));
    } catch (NumberFormatException e) {
      return false;
    }
    if (isIpv6(text)) {
      return IPV6.matcher(address).matches() && address.contains(":") && bits >= 0 && bits <= 128;
    }
    return IPV4.matcher(address).matches() && bits >= 0 && bits <= 32;
  }

  static boolean isIpv6(String cidr) {
    return cidr.contains(":");
  }
}
