package dev.threadline.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Creates the agent a benchmark talks to, through the REST API. */
final class BenchAgents {
  private BenchAgents() {}

  /** POSTs {@code json} to /v1/agents and returns the new agent's id. */
  static String create(HttpClient http, String apiUrl, String apiKey, String json)
      throws IOException, InterruptedException {
    HttpResponse<String> agent =
        http.send(
            HttpRequest.newBuilder(URI.create(apiUrl + "/v1/agents"))
                .header("Authorization", "Bearer " + apiKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (agent.statusCode() != 201) {
      throw new IllegalStateException("could not create the agent: " + agent.body());
    }
    return agent.body().replaceAll("(?s).*?\"id\":\"(agent_[^\"]+)\".*", "$1");
  }
}
