package dev.threadline.api.environments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Shared steps of the environment endpoint tests. */
final class EnvironmentTestSupport {
  private EnvironmentTestSupport() {}

  static String createEnvironment(TestUser user, String name) {
    ApiClient.Response created =
        SharedApiServer.get()
            .api()
            .post("/environments", user.key(), "{\"name\": \"" + name + "\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().get("environment").get("id").asString();
  }

  static List<String> ids(ApiClient.Response list) {
    List<String> ids = new ArrayList<>();
    list.json().get("data").forEach(item -> ids.add(item.get("id").asString()));
    return ids;
  }

  static Map<String, String> decode(Secret secret) {
    Map<String, String> values = new TreeMap<>();
    secret
        .getData()
        .forEach((key, value) ->
            values.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
    return values;
  }

  static EnvironmentSpec specOf(TestUser user, String id) {
    return SharedApiServer.get()
        .client()
        .resources(Environment.class)
        .inNamespace(user.namespace())
        .withName(id.replace('_', '-'))
        .get()
        .getSpec();
  }
}
