package dev.threadline.crds.environment;

/**
 * Where an Environment's sensitive values live, and the shapes of names shared by the schema, the
 * REST API and the operator. Values written through the REST API go into one Secret per
 * Environment, {@code <environment-name>-vars}, owned by it (deleted with it), one key per value:
 * {@code env.<KEY>} for a variable, {@code secret.<NAME>} for a secret, {@code
 * mcp.<server>.bearerToken} for an MCP server's token. The spec keeps names only.
 */
public final class EnvironmentValues {
  /** Variable and secret names: what a shell accepts as a variable name. */
  public static final String NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";

  /** MCP server names: also a Secret-key segment, so no spaces or slashes. */
  public static final String MCP_NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.-]*$";

  public static final String HTTP_URL_PATTERN = "^https?://[^\\s/?#]+[^\\s]*$";
  public static final String REQUEST_ID_PATTERN = "^[a-z0-9]([-a-z0-9]{0,14}[a-z0-9])?$";

  /** Label on the Secret, build ConfigMaps and Jobs of an Environment: its name. */
  public static final String ENVIRONMENT_LABEL = "threadline.dev/environment";

  /** Label on build Jobs and ConfigMaps: {@code build} or {@code test}. */
  public static final String BUILD_KIND_LABEL = "threadline.dev/build-kind";

  /** Label on build Jobs and ConfigMaps: the build hash. */
  public static final String BUILD_HASH_LABEL = "threadline.dev/build-hash";

  /** What the REST API shows instead of a stored value. */
  public static final String MASK = "****";

  private static final String SECRET_SUFFIX = "-vars";

  private EnvironmentValues() {}

  /** {@code <environment-name>-vars}. */
  public static String secretName(String environmentName) {
    return environmentName + SECRET_SUFFIX;
  }

  public static String variableKey(String variable) {
    return "env." + variable;
  }

  public static String secretKey(String secret) {
    return "secret." + secret;
  }

  public static String bearerTokenKey(String mcpServer) {
    return "mcp." + mcpServer + ".bearerToken";
  }
}
