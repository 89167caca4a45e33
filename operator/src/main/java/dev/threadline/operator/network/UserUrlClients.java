package dev.threadline.operator.network;

import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.network.TargetSetting;
import java.time.Duration;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP client of every call to a URL a user gave (webhooks, http MCP servers): names are
 * resolved through {@link PublicAddressResolver}, which admits only the addresses {@code allowed}
 * does, and the client connects only to the addresses it returned — the address checked is the
 * address connected to. Redirects are not followed (a redirect could lead anywhere), nothing is
 * retried, no cookies, no proxy.
 */
public final class UserUrlClients {
  private UserUrlClients() {}

  /**
   * @param allowed the addresses that may be called
   * @param names how host names are resolved (the system's, or a test's own answers)
   * @param allowSetting the setting that allows more targets, named in a refusal
   * @param readTimeout the longest wait for the answer and between two reads of it; zero: none (a
   *     stream that may stay quiet, closed by its owner)
   */
  public static CloseableHttpClient create(
      AllowedTargets allowed,
      DnsResolver names,
      TargetSetting allowSetting,
      Duration connectTimeout,
      Duration readTimeout,
      String userAgent) {
    Timeout read = readTimeout.isZero() ? Timeout.INFINITE : Timeout.of(readTimeout);
    return HttpClients.custom()
        .setConnectionManager(
            PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(new PublicAddressResolver(names, allowed, allowSetting))
                .setDefaultConnectionConfig(
                    ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(read)
                        .build())
                .build())
        .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(read).build())
        .disableRedirectHandling()
        .disableAutomaticRetries()
        .disableCookieManagement()
        .setUserAgent(userAgent)
        .build();
  }
}
