package dev.threadline.runner.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Who may call the sandbox. A sandbox started for one run or container is bound from the start: its
 * credential file holds the caller's token. A warm-pool sandbox starts unbound: its file holds the
 * pool's credential, which only the operator's side knows and which opens nothing but {@code POST
 * /bind}. The one bind installs the run's own credential and environment variables; from then on
 * the pool credential opens nothing, and a second bind is refused. So a sandbox serves one run,
 * whoever claimed it, and never goes back to the pool.
 */
final class SandboxBinding {
  /** An environment variable's name, as POSIX shells accept it. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,254}");

  static final int MIN_TOKEN_CHARS = 32;
  static final int MAX_VARIABLES = 500;

  private final AccessToken poolToken;
  private volatile AccessToken token;
  private volatile Map<String, String> environment = Map.of();

  private SandboxBinding(AccessToken poolToken, AccessToken token) {
    this.poolToken = poolToken;
    this.token = token;
  }

  /** Bound from the start to {@code token}. */
  static SandboxBinding bound(AccessToken token) {
    return new SandboxBinding(null, token);
  }

  /** Waiting for its one bind, which {@code poolToken} authorises. */
  static SandboxBinding unbound(AccessToken poolToken) {
    return new SandboxBinding(poolToken, null);
  }

  /** Whether a call that is not a bind carries the bound credential. */
  boolean accepts(Headers headers) {
    AccessToken bound = token;
    return bound != null && bound.accepts(headers);
  }

  /**
   * The proof, for {@code challenge}, of the credential the sandbox answers to now: the bound one,
   * or — a pool sandbox not bound yet — the pool's. Whoever mounted or handed out that credential
   * can check it; a process that only took the sandbox's address cannot make it.
   */
  String prove(String challenge) {
    AccessToken bound = token;
    return (bound != null ? bound : poolToken).prove(challenge);
  }

  /** Environment variables bound late, added to every command's and MCP server's environment. */
  Map<String, String> environment() {
    return environment;
  }

  /**
   * Binds the sandbox to a run: {@code {"token": "<run credential>", "env": {"NAME": "value"}}}.
   *
   * @throws FileApiException 401 without the pool credential (or once bound: it is spent), 400 for
   *     a bad body
   */
  synchronized void bind(Headers headers, JsonNode body) {
    if (poolToken == null || token != null || !poolToken.accepts(headers)) {
      throw new FileApiException(401, "missing or wrong credential");
    }
    JsonNode presented = body.get("token");
    if (presented == null
        || !presented.isTextual()
        || presented.asText().strip().length() < MIN_TOKEN_CHARS) {
      throw FileApiException.badRequest(
          "token must be a string of at least " + MIN_TOKEN_CHARS + " characters");
    }
    Map<String, String> variables = new LinkedHashMap<>();
    JsonNode env = body.get("env");
    if (env != null && !env.isNull()) {
      if (!env.isObject() || env.size() > MAX_VARIABLES) {
        throw FileApiException.badRequest(
            "env must be an object of at most " + MAX_VARIABLES + " names to strings");
      }
      for (Map.Entry<String, JsonNode> variable : env.properties()) {
        if (!NAME.matcher(variable.getKey()).matches() || !variable.getValue().isTextual()) {
          throw FileApiException.badRequest(
              "env." + variable.getKey() + " must be a variable name with a string value");
        }
        variables.put(variable.getKey(), variable.getValue().asText());
      }
    }
    environment = Map.copyOf(variables);
    token = AccessToken.of(presented.asText());
  }
}
