package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.api.config.InformerStoppedHandler;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an informer that stopped with an error means. While the operator is being closed, its
 * informers lose their client: that is the end of the watch, not a failure (the framework's default
 * handler exited the whole process then, which in the local mode or a test JVM is everything).
 * Otherwise the framework's behaviour stays: a cache that can no longer follow the API makes every
 * decision stale, so the process ends and is restarted.
 */
public final class InformerStops implements InformerStoppedHandler {
  private static final Logger LOG = LoggerFactory.getLogger(InformerStops.class);

  private final BooleanSupplier operatorStopping;
  private final Runnable endProcess;

  /**
   * @param operatorStopping whether the operator is being closed
   */
  public InformerStops(BooleanSupplier operatorStopping) {
    this(operatorStopping, () -> System.exit(1));
  }

  /**
   * @param endProcess what a fatal stop does (the process's exit; a test passes a recorder)
   */
  InformerStops(BooleanSupplier operatorStopping, Runnable endProcess) {
    this.operatorStopping = operatorStopping;
    this.endProcess = endProcess;
  }

  @Override
  public void onStop(SharedIndexInformer informer, Throwable error) {
    String type = informer.getApiTypeClass().getSimpleName();
    if (operatorStopping.getAsBoolean() || error == null) {
      LOG.debug("Informer {} stopped with the operator", type);
      return;
    }
    LOG.error("Fatal error in informer {}: stopping the process", type, error);
    endProcess.run();
  }
}
