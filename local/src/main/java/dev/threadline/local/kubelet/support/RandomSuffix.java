package dev.threadline.local.kubelet.support;

import java.security.SecureRandom;

/**
 * The random part of generated names, from the alphabet Kubernetes uses (no vowels, no
 * look-alikes).
 */
public final class RandomSuffix {
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private RandomSuffix() {}

  public static String of(int length) {
    StringBuilder suffix = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      suffix.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return suffix.toString();
  }
}
