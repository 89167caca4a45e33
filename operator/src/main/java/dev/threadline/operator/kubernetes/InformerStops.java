package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an informer that stopped with an error means. While the operator is being closed, its
 * informers lose their client: that is the end of the watch, not a failure (the framework's default
 * handler exited the whole process then, which in the local mode or a test JVM is everything).
 * Otherwise the framework's behaviour stays: a cache that can no longer follow the API makes every
 * decision stale, so the process ends and is restarted.
 */
public final class InformerStops {
  private static final Logger LOG = LoggerFactory.getLogger(InformerStops.class);

  private InformerStops() {}

  public static void onStop(
      boolean operatorStopping, SharedIndexInformer<?> informer, Throwable error) {
    if (operatorStopping || error == null) {
      LOG.debug(
          "Informer {} stopped with the operator", informer.getApiTypeClass().getSimpleName());
      return;
    }
    LOG.error(
        "Fatal error in informer {}: stopping the process",
        informer.getApiTypeClass().getSimpleName(),
        error);
    System.exit(1);
  }
}
