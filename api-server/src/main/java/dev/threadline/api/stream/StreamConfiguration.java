package dev.threadline.api.stream;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.metrics.ApiMetrics;
import dev.threadline.crds.run.Run;
import dev.threadline.history.History;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams and waiting requests run outside the servlet container's request threads, on virtual
 * threads: each spends its life blocked on a queue, and a bounded pool (Spring's default task
 * executor has 8 threads) would make the ninth client wait for the first to finish.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(StreamSettings.class)
class StreamConfiguration implements WebMvcConfigurer {
  /** Beyond the longest wait a stream allows itself, so that ours ends first and cleanly. */
  private static final long TIMEOUT_MARGIN_MS = 60_000;

  private final StreamSettings settings;
  private final SimpleAsyncTaskExecutor executor =
      new SimpleAsyncTaskExecutor("threadline-stream-");

  StreamConfiguration(StreamSettings settings) {
    this.settings = settings;
    executor.setVirtualThreads(true);
  }

  @Override
  public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
    configurer.setTaskExecutor(executor);
    configurer.setDefaultTimeout(settings.maxWait().toMillis() + TIMEOUT_MARGIN_MS);
  }

  @Bean
  RunUpdates runUpdates() {
    return new RunUpdates();
  }

  @Bean
  RunStreams runStreams(
      RunUpdates runUpdates,
      ManagedInformer<Run> runInformer,
      RunLog runLog,
      JsonMapper json,
      ApiMetrics metrics,
      ApiServerSettings server) {
    return new RunStreams(
        runUpdates, runInformer, runLog, json, settings, metrics, server.deltasToken());
  }

  @Bean
  RunLog runLog(History history) {
    return new RunLog(history);
  }

  @Bean
  RunResumption runResumption(RunStreams runStreams, ManagedInformer<Run> runInformer) {
    return new RunResumption(runStreams, runInformer);
  }

  @Bean
  RunCompletion runCompletion(RunUpdates runUpdates, ManagedInformer<Run> runInformer) {
    return new RunCompletion(runUpdates, runInformer);
  }
}
