package dev.threadline.api.edge;

import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.RemoteIpValve;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Applies {@link EdgeSettings} to the embedded Tomcat: read and keep-alive timeouts, the header
 * size, no body swallowed after a refusal, the JSON error body for requests Tomcat itself refuses,
 * and the client address behind trusted proxies. Runs after Spring Boot's own customizer, so these
 * values win over {@code server.tomcat.*} defaults.
 */
final class TomcatEdge
    implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {
  private final EdgeSettings settings;

  TomcatEdge(EdgeSettings settings) {
    this.settings = settings;
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public void customize(TomcatServletWebServerFactory factory) {
    factory.addConnectorCustomizers(connector -> {
      if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
        http.setConnectionTimeout(millis(settings.readTimeout().toMillis()));
        http.setKeepAliveTimeout(millis(settings.keepAliveTimeout().toMillis()));
        http.setMaxKeepAliveRequests(
            settings.maxKeepAliveRequests() == 0 ? -1 : settings.maxKeepAliveRequests());
        http.setMaxHttpRequestHeaderSize((int) settings.maxHeaderSize().toBytes());
        // A body nobody reads is not read (UnreadBodyValve closes such connections first).
        http.setMaxSwallowSize(0);
      }
    });
    factory.addEngineValves(new UnreadBodyValve());
    JsonErrorReportValve errors = new JsonErrorReportValve(settings.maxHeaderSize().toBytes());
    factory.addContextCustomizers(context -> {
      // The host adds an error report valve of this class on start unless one is there.
      StandardHost host = (StandardHost) context.getParent();
      host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
      host.getPipeline().addValve(errors);
    });
    if (!settings.trustedProxies().isEmpty()) {
      RemoteIpValve forwarded = new RemoteIpValve();
      forwarded.setInternalProxies(settings.trustedProxies());
      forwarded.setTrustedProxies("");
      forwarded.setRemoteIpHeader("X-Forwarded-For");
      forwarded.setProtocolHeader("X-Forwarded-Proto");
      factory.addEngineValves(forwarded);
    }
  }

  private static int millis(long millis) {
    return (int) Math.min(Integer.MAX_VALUE, millis);
  }
}
