package dev.threadline.local.kubeapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain HTTP requests to the embedded API, for what a fabric8 client would hide. */
final class RawHttp {
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String baseUrl;

  RawHttp(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET().build());
  }

  HttpResponse<String> get(String path, String accept) {
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Accept", accept).GET().build());
  }

  HttpResponse<String> send(String method, String path, String contentType, String body) {
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("Content-Type", contentType)
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  <T> HttpResponse<T> stream(String path, HttpResponse.BodyHandler<T> handler) {
    try {
      return client.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET().build(), handler);
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
