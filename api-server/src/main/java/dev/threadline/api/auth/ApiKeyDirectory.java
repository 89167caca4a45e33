package dev.threadline.api.auth;

import dev.threadline.api.kubernetes.ManagedInformer;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The registered API keys, read from the informer cache of API key Secrets, indexed by hash. */
public final class ApiKeyDirectory {
  /** Index of API key Secrets by their {@code sha256} value. */
  public static final String BY_HASH = "sha256";

  private final ManagedInformer<Secret> secrets;

  public ApiKeyDirectory(ManagedInformer<Secret> secrets) {
    this.secrets = secrets;
  }

  /** The index function to install on the Secret informer. */
  public static Function<Secret, List<String>> hashIndex() {
    return secret ->
        Optional.ofNullable(ApiKeySecret.hashOf(secret)).map(List::of).orElse(List.of());
  }

  public boolean isReady() {
    return secrets.hasSynced();
  }

  /** Keys whose stored hash equals {@code presentedHash}, compared in constant time. */
  List<ApiKeySecret> findByHash(String presentedHash) {
    byte[] presented = presentedHash.getBytes(StandardCharsets.US_ASCII);
    return secrets.byIndex(BY_HASH, presentedHash).stream()
        .map(ApiKeySecret::from)
        .flatMap(Optional::stream)
        .filter(key ->
            MessageDigest.isEqual(key.sha256().getBytes(StandardCharsets.US_ASCII), presented))
        .toList();
  }
}
