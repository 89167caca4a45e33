package dev.threadline.operator.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a message as the Standard Webhooks spec says: {@code webhook-signature: v1,<base64 of
 * HMAC-SHA256(secret, "<webhook-id>.<webhook-timestamp>.<body>")>}, with the secret given as {@code
 * whsec_<base64 key>}. Receivers verify with any Standard Webhooks library.
 */
public final class WebhookSigner {
  static final String SECRET_PREFIX = "whsec_";
  private static final String ALGORITHM = "HmacSHA256";

  private final byte[] key;

  private WebhookSigner(byte[] key) {
    this.key = key;
  }

  /** From a {@code whsec_…} secret (the prefix is optional, as in the reference libraries). */
  public static WebhookSigner ofSecret(String secret) {
    String encoded =
        secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
    byte[] key;
    try {
      key = Base64.getDecoder().decode(encoded.strip());
    } catch (IllegalArgumentException notBase64) {
      throw new IllegalArgumentException(
          "a webhook secret is whsec_ followed by base64", notBase64);
    }
    if (key.length < 24) {
      throw new IllegalArgumentException("a webhook secret needs at least 24 bytes of key");
    }
    return new WebhookSigner(key);
  }

  /** The {@code webhook-signature} header value. */
  public String sign(String messageId, long timestampSeconds, String body) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      byte[] digest =
          mac.doFinal(
              (messageId + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has " + ALGORITHM, e);
    }
  }
}
