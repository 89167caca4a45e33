package dev.threadline.local.kubeapi;

import dev.threadline.local.kubeapi.rbac.UserInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bearer tokens the embedded API accepts and whom each authenticates: the administrator's
 * (group {@code system:masters}), generated at each start and written only into the kubeconfig
 * (mode 600); service-account tokens, issued to Pods and to the local mode's components; and users'
 * tokens (their own kubeconfigs). Tokens live in memory: a restart makes new ones.
 */
final class Credentials {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String adminToken = newToken();
  private final Map<String, UserInfo> tokens = new ConcurrentHashMap<>();

  String adminToken() {
    return adminToken;
  }

  /** A token that authenticates as {@code system:serviceaccount:<namespace>:<serviceAccount>}. */
  String issue(String namespace, String serviceAccount) {
    return issue(UserInfo.serviceAccount(namespace, serviceAccount));
  }

  /** A token that authenticates as {@code user}. */
  String issue(UserInfo user) {
    String token = newToken();
    tokens.put(token, user);
    return token;
  }

  /** The identity of an {@code Authorization} header, or empty when it names none. */
  Optional<UserInfo> authenticate(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    String token = authorization.substring(7).strip();
    if (MessageDigest.isEqual(
        token.getBytes(StandardCharsets.UTF_8), adminToken.getBytes(StandardCharsets.UTF_8))) {
      return Optional.of(UserInfo.administrator());
    }
    return Optional.ofNullable(tokens.get(token));
  }

  private static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
