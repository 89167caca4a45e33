package dev.threadline.local.kubeapi;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Plain HTTP requests to the embedded API, for what a fabric8 client would hide. */
final class RawHttp {
  private final HttpClient client;
  private final String baseUrl;
  private final String token;

  /** As the administrator, with the API's token. */
  RawHttp(EmbeddedKubernetesApi api) {
    this(api, api.adminToken());
  }

  /** With this bearer token, or none when null; trusting the API's certificate. */
  RawHttp(EmbeddedKubernetesApi api, String token) {
    this(api.url(), token, HttpClient.newBuilder().sslContext(trusting(api.caCertificateData())));
  }

  /** The API's two listeners: TLS for everyone, plain HTTP on loopback for this process. */
  enum Listener {
    TLS,
    IN_PROCESS;

    /** To this listener, with this bearer token or none when null. */
    RawHttp client(EmbeddedKubernetesApi api, String token) {
      return this == TLS ? new RawHttp(api, token) : inProcess(api, token);
    }
  }

  /** To the API's in-process listener (plain HTTP on loopback), with this token or none. */
  static RawHttp inProcess(EmbeddedKubernetesApi api, String token) {
    return new RawHttp(api.inProcessUrl(), token, HttpClient.newBuilder());
  }

  private RawHttp(String baseUrl, String token, HttpClient.Builder client) {
    this.baseUrl = baseUrl;
    this.token = token;
    this.client =
        client.version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  }

  static SSLContext trusting(String caCertificateData) {
    try {
      Certificate certificate =
          CertificateFactory.getInstance("X.509")
              .generateCertificate(
                  new ByteArrayInputStream(Base64.getDecoder().decode(caCertificateData)));
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      trusted.setCertificateEntry("embedded-api", certificate);
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path));
    return token == null ? builder : builder.header("Authorization", "Bearer " + token);
  }

  HttpResponse<String> get(String path) {
    return send(request(path).GET().build());
  }

  HttpResponse<String> get(String path, String accept) {
    return send(request(path).header("Accept", accept).GET().build());
  }

  HttpResponse<String> send(String method, String path, String contentType, String body) {
    return send(
        request(path)
            .header("Content-Type", contentType)
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  /** A request whose body comes from a stream: sent chunked, without a Content-Length. */
  HttpResponse<String> sendStreamed(
      String method, String path, String contentType, Supplier<InputStream> body) {
    return send(
        request(path)
            .header("Content-Type", contentType)
            .method(method, HttpRequest.BodyPublishers.ofInputStream(body))
            .build());
  }

  <T> HttpResponse<T> stream(String path, HttpResponse.BodyHandler<T> handler) {
    try {
      return client.send(request(path).GET().build(), handler);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
