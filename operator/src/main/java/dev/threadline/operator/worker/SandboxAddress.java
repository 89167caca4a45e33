package dev.threadline.operator.worker;

import java.net.URI;
import java.util.Objects;

/**
 * Where a run's sandbox answers and the credential it accepts. {@link #toString()} never shows the
 * credential.
 *
 * @param base {@code http://<pod ip>:<port>}, without a trailing slash
 * @param credential the per-sandbox bearer token from its credential Secret
 */
public record SandboxAddress(URI base, String credential) {
  public SandboxAddress {
    Objects.requireNonNull(base, "base");
    if (credential == null || credential.isBlank()) {
      throw new IllegalArgumentException("a sandbox address needs its credential");
    }
  }

  public static SandboxAddress of(String host, int port, String credential) {
    return new SandboxAddress(URI.create("http://" + host + ":" + port), credential);
  }

  URI resolve(String pathAndQuery) {
    return URI.create(base + pathAndQuery);
  }

  @Override
  public String toString() {
    return "SandboxAddress[" + base + ", credential=****]";
  }
}
