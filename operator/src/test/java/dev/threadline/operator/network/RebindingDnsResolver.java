package dev.threadline.operator.network;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.hc.client5.http.DnsResolver;

/**
 * DNS rebinding, for tests: answers the first address to the first lookup (the one a check made
 * beforehand would see) and the second to every later one (the connection's).
 */
public final class RebindingDnsResolver implements DnsResolver {
  private final String first;
  private final String later;
  private int lookups;

  public RebindingDnsResolver(String first, String later) {
    this.first = first;
    this.later = later;
  }

  @Override
  public synchronized InetAddress[] resolve(String host) throws UnknownHostException {
    return new InetAddress[] {InetAddress.getByName(lookups++ == 0 ? first : later)};
  }

  @Override
  public String resolveCanonicalHostname(String host) {
    return host;
  }
}
