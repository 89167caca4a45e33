package dev.threadline.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The floor: how long the embedded Kubernetes API takes from a create call to the watch event that
 * reports it. Nothing built on that API can react faster.
 */
final class ApiRoundTrip {
  private ApiRoundTrip() {}

  static List<Double> measure(KubernetesClient client, String namespace, int iterations)
      throws Exception {
    Map<String, CompletableFuture<Long>> seen = new ConcurrentHashMap<>();
    List<Double> samples = new ArrayList<>();
    try (Watch watch =
        client
            .configMaps()
            .inNamespace(namespace)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap resource) {
                    if (action == Action.ADDED) {
                      CompletableFuture<Long> waiting = seen.get(resource.getMetadata().getName());
                      if (waiting != null) {
                        waiting.complete(System.nanoTime());
                      }
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      for (int i = 0; i < iterations; i++) {
        String name = "floor-" + i;
        CompletableFuture<Long> arrival = new CompletableFuture<>();
        seen.put(name, arrival);
        long start = System.nanoTime();
        client
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace(namespace)
                    .endMetadata()
                    .addToData("i", Integer.toString(i))
                    .build())
            .create();
        samples.add((arrival.get(10, TimeUnit.SECONDS) - start) / 1e6);
        client.configMaps().inNamespace(namespace).withName(name).delete();
      }
    }
    return samples;
  }
}
