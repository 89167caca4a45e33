package dev.threadline.core.network;

import java.net.InetAddress;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which addresses calls to user-given URLs may reach. Public addresses always; loopback and private
 * networks only when configured; link-local (cloud metadata) and unroutable addresses never.
 */
public enum AllowedTargets {
  /** Public addresses only: the default wherever tenants choose URLs. */
  PUBLIC(EnumSet.of(AddressKind.PUBLIC)),
  /** Public and loopback addresses: local mode's default, where receivers run on this machine. */
  LOOPBACK(EnumSet.of(AddressKind.PUBLIC, AddressKind.LOOPBACK)),
  /** Public, loopback and private-network addresses (10/8, 172.16/12, 192.168/16, fc00::/7...). */
  PRIVATE(EnumSet.of(AddressKind.PUBLIC, AddressKind.LOOPBACK, AddressKind.PRIVATE));

  /**
   * Where webhooks may go: read by the operator (at delivery) and by the api-server (at
   * registration), which must agree.
   */
  public static final String WEBHOOKS_VARIABLE = "THREADLINE_WEBHOOK_ALLOWED_TARGETS";

  /** The earlier boolean: {@code true} means {@link #PRIVATE} when the variable above is unset. */
  public static final String LEGACY_WEBHOOKS_VARIABLE = "THREADLINE_WEBHOOK_ALLOW_PRIVATE_TARGETS";

  private final Set<AddressKind> admitted;

  AllowedTargets(Set<AddressKind> admitted) {
    this.admitted = admitted;
  }

  public boolean admits(AddressKind kind) {
    return admitted.contains(kind);
  }

  /** The setting's value that means this: {@code public}, {@code loopback}, {@code private}. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * From {@link #WEBHOOKS_VARIABLE}, else {@link #LEGACY_WEBHOOKS_VARIABLE}; {@link #PUBLIC} when
   * neither is set.
   */
  public static AllowedTargets forWebhooks(Map<String, String> env) {
    String value = env.get(WEBHOOKS_VARIABLE);
    if (value != null && !value.isBlank()) {
      return parse(WEBHOOKS_VARIABLE, value);
    }
    String legacy = env.get(LEGACY_WEBHOOKS_VARIABLE);
    return legacy != null && Boolean.parseBoolean(legacy.strip()) ? PRIVATE : PUBLIC;
  }

  /**
   * @throws IllegalArgumentException naming {@code variable} when {@code text} is none of the
   *     values
   */
  public static AllowedTargets parse(String variable, String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    for (AllowedTargets targets : values()) {
      if (targets.value().equals(value)) {
        return targets;
      }
    }
    throw new IllegalArgumentException(
        variable + " must be public, loopback or private, got: " + text.strip());
  }

  /**
   * Why {@code host}, which is or resolves to {@code address}, may not be called; empty when it
   * may. {@code setting} names the variable that would allow it, where one would.
   */
  public Optional<String> refusal(String host, InetAddress address, TargetSetting setting) {
    AddressKind kind = AddressKind.of(address);
    if (admits(kind)) {
      return Optional.empty();
    }
    String shown = address.getHostAddress();
    String what =
        (host.equals(shown) || host.equals("[" + shown + "]") ? shown : host + " (" + shown + ")")
            + " is "
            + kind.description();
    String allowedBy =
        switch (kind) {
          case LOOPBACK -> "; allowed only with " + setting.toAllow(LOOPBACK);
          case PRIVATE -> "; allowed only with " + setting.toAllow(PRIVATE);
          default -> ", never called";
        };
    return Optional.of(what + allowedBy);
  }
}
