package dev.threadline.local.kubeapi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bearer tokens the embedded API accepts: the administrator's, generated at each start and
 * written only into the kubeconfig (mode 600), and service-account tokens issued to Pods. Tokens
 * live in memory: a restart makes new ones.
 */
final class Credentials {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String adminToken = newToken();
  private final Map<String, Principal.ServiceAccount> serviceAccounts = new ConcurrentHashMap<>();

  String adminToken() {
    return adminToken;
  }

  /** A token that authenticates as {@code namespace/serviceAccount}. */
  String issue(String namespace, String serviceAccount) {
    String token = newToken();
    serviceAccounts.put(token, new Principal.ServiceAccount(namespace, serviceAccount));
    return token;
  }

  /** The principal of an {@code Authorization} header, or empty when it names none. */
  Optional<Principal> authenticate(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    String token = authorization.substring(7).strip();
    if (MessageDigest.isEqual(
        token.getBytes(StandardCharsets.UTF_8), adminToken.getBytes(StandardCharsets.UTF_8))) {
      return Optional.of(new Principal.Administrator());
    }
    return Optional.ofNullable(serviceAccounts.get(token));
  }

  private static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
