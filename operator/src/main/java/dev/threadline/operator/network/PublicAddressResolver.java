package dev.threadline.operator.network;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.hc.client5.http.DnsResolver;

/**
 * The name resolution of clients that call user-given URLs (webhooks, http MCP servers): every
 * address a host resolves to is checked with {@link PrivateTargets} and the lookup fails when one
 * is private. The client connects only to addresses its resolver returned, so the address actually
 * connected to is one that was checked — a name that answers a public address to an earlier lookup
 * and a private one at connection time (DNS rebinding) is refused, not followed.
 */
public final class PublicAddressResolver implements DnsResolver {
  private final DnsResolver delegate;
  private final String allowSetting;

  /**
   * @param allowSetting the setting that allows private targets, named in a refusal
   */
  public PublicAddressResolver(DnsResolver delegate, String allowSetting) {
    this.delegate = delegate;
    this.allowSetting = allowSetting;
  }

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    InetAddress[] addresses = delegate.resolve(host);
    for (InetAddress address : addresses) {
      if (PrivateTargets.isPrivate(address)) {
        throw new PrivateTargetRefused(PrivateTargets.refusal(host, address, allowSetting));
      }
    }
    return addresses;
  }

  @Override
  public String resolveCanonicalHostname(String host) throws UnknownHostException {
    return delegate.resolveCanonicalHostname(host);
  }

  /** A host refused for resolving to a private address; never worth another attempt. */
  public static final class PrivateTargetRefused extends UnknownHostException {
    PrivateTargetRefused(String reason) {
      super(reason);
    }
  }
}
