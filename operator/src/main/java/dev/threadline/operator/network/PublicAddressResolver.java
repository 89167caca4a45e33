package dev.threadline.operator.network;

import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.network.InvalidTargetException;
import dev.threadline.core.network.TargetSetting;
import dev.threadline.core.network.TargetUrl;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import org.apache.hc.client5.http.DnsResolver;

/**
 * The name resolution of clients that call user-given URLs (webhooks, http MCP servers): an IP
 * literal is read with {@link TargetUrl#literalOf} (ambiguous forms refused), a name is resolved by
 * the delegate, and the lookup fails when any address is one {@link AllowedTargets} does not admit.
 * The client connects only to addresses its resolver returned, so the address actually connected to
 * is one that was checked — a name that answers a public address to an earlier lookup and a private
 * one at connection time (DNS rebinding) is refused, not followed.
 */
public final class PublicAddressResolver implements DnsResolver {
  private final DnsResolver delegate;
  private final AllowedTargets allowed;
  private final TargetSetting allowSetting;

  /**
   * @param allowSetting the setting that allows more targets, named in a refusal
   */
  public PublicAddressResolver(
      DnsResolver delegate, AllowedTargets allowed, TargetSetting allowSetting) {
    this.delegate = delegate;
    this.allowed = allowed;
    this.allowSetting = allowSetting;
  }

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    Optional<InetAddress> literal;
    try {
      literal = TargetUrl.literalOf(host);
    } catch (InvalidTargetException ambiguous) {
      throw new PrivateTargetRefused("the host " + host + " " + ambiguous.getMessage());
    }
    InetAddress[] addresses =
        literal.isPresent() ? new InetAddress[] {literal.get()} : delegate.resolve(host);
    for (InetAddress address : addresses) {
      Optional<String> refusal = allowed.refusal(host, address, allowSetting);
      if (refusal.isPresent()) {
        throw new PrivateTargetRefused(refusal.get());
      }
    }
    return addresses;
  }

  @Override
  public String resolveCanonicalHostname(String host) throws UnknownHostException {
    return delegate.resolveCanonicalHostname(host);
  }

  /** A host refused for where it leads; never worth another attempt. */
  public static final class PrivateTargetRefused extends UnknownHostException {
    public PrivateTargetRefused(String reason) {
      super(reason);
    }
  }
}
