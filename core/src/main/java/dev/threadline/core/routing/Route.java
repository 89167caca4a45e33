package dev.threadline.core.routing;

/** The two execution paths a message can take. */
public enum Route {
  /** One model call answers; no container. */
  DIRECT("direct"),
  /** An agent Pod runs commands and edits files. */
  COMPUTER("computer");

  private final String value;

  Route(String value) {
    this.value = value;
  }

  /** The name written on the Run and in events. */
  public String value() {
    return value;
  }

  public static Route fromValue(String value) {
    for (Route route : values()) {
      if (route.value.equals(value)) {
        return route;
      }
    }
    throw new IllegalArgumentException("unknown route: " + value);
  }
}
