package dev.threadline.api.a2a;

import dev.threadline.api.agents.AgentService;
import dev.threadline.api.stream.RunCompletion;
import dev.threadline.api.stream.RunStreams;
import dev.threadline.api.threads.ThreadTasks;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires A2A onto the thread and run services REST uses. */
@Configuration(proxyBeanMethods = false)
class A2aConfiguration {
  /** How long {@code tasks/cancel} waits for the run to stop before it answers. */
  static final Duration CANCEL_WAIT = Duration.ofSeconds(10);

  @Bean
  A2aService a2aService(
      ThreadTasks threadTasks,
      AgentService agentService,
      RunStreams runStreams,
      RunCompletion runCompletion) {
    return new A2aService(threadTasks, agentService, runStreams, runCompletion, CANCEL_WAIT);
  }
}
