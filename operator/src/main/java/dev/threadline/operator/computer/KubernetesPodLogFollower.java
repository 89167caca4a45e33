package dev.threadline.operator.computer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a log through the API server ({@code GET .../pods/<name>/log?follow=true}): each line is
 * handed on as its chunk arrives, on a virtual thread per followed Pod that blocks on the stream.
 */
public final class KubernetesPodLogFollower implements PodLogFollower {
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesPodLogFollower.class);

  private final KubernetesClient client;

  public KubernetesPodLogFollower(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Following follow(String namespace, String pod, String container, Listener listener) {
    AtomicBoolean closed = new AtomicBoolean();
    AtomicReference<LogWatch> watch = new AtomicReference<>();
    Thread.ofVirtual()
        .name("log-" + namespace + "/" + pod)
        .start(() -> {
          Exception failure = null;
          try {
            LogWatch opened =
                client
                    .pods()
                    .inNamespace(namespace)
                    .withName(pod)
                    .inContainer(container)
                    .watchLog();
            watch.set(opened);
            if (closed.get()) {
              opened.close();
              return;
            }
            try (BufferedReader lines =
                new BufferedReader(
                    new InputStreamReader(opened.getOutput(), StandardCharsets.UTF_8))) {
              for (String line = lines.readLine();
                  line != null && !closed.get();
                  line = lines.readLine()) {
                listener.line(line);
              }
            }
          } catch (Exception e) {
            failure = e;
          } finally {
            LogWatch opened = watch.get();
            if (opened != null) {
              opened.close();
            }
          }
          if (!closed.get()) {
            if (failure != null) {
              LOG.debug("Pod({}/{}) log stream broke: {}", namespace, pod, failure.toString());
            }
            listener.ended(failure);
          }
        });
    return () -> {
      closed.set(true);
      LogWatch opened = watch.get();
      if (opened != null) {
        opened.close();
      }
    };
  }
}
