package dev.threadline.operator.support;

import dev.threadline.operator.ThreadlineOperator;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reconciles a whole operator finished, per controller, as its own /metrics reports them
 * (java-operator-sdk's execution timer): tests compare them with the status writes the mock server
 * received. Per controller, not per object: a test keeps other objects of the kind quiet meanwhile.
 */
public final class ControllerReconciles {
  private static final Pattern LINE =
      Pattern.compile(
          "^operator_sdk_controllers_execution_reconcile_seconds_count\\{([^}]*)\\} ([0-9.eE+]+)$",
          Pattern.MULTILINE);

  private final HttpClient http = HttpClient.newHttpClient();
  private final URI metrics;

  private ControllerReconciles(int port) {
    this.metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
  }

  /** Serves the operator's endpoints on loopback (if it does not yet) and reads them. */
  public static ControllerReconciles of(ThreadlineOperator operator) {
    return new ControllerReconciles(
        operator.serveHttpEndpoints(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
  }

  /** How many reconciles these controllers finished so far. */
  public long of(String... controllers) {
    List<String> wanted = Arrays.stream(controllers).map(c -> "controller=\"" + c + "\"").toList();
    Matcher line = LINE.matcher(scrape());
    long count = 0;
    while (line.find()) {
      String tags = line.group(1);
      if (wanted.stream().anyMatch(tags::contains)) {
        count += (long) Double.parseDouble(line.group(2));
      }
    }
    return count;
  }

  /** Waits until these controllers stop reconciling; returns how many reconciles they finished. */
  public long awaitSettled(String... controllers) {
    return Settled.count(() -> of(controllers));
  }

  private String scrape() {
    try {
      return http.send(
              HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
