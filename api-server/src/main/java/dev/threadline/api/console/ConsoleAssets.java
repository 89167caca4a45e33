package dev.threadline.api.console;

import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;

/**
 * Which requests are the web console's static files: they carry no API key (the page that asks for
 * the key cannot need one), so the rule is narrow. Only GET or HEAD, only under {@code /console},
 * and only plain path segments: no {@code ..}, no encoded characters, no path parameters, so
 * nothing can be smuggled past the key check into an API route. The files are public anyway; every
 * API call the console makes carries the key.
 */
public final class ConsoleAssets {
  public static final String PATH = "/console";

  private static final Pattern ASSET_PATH =
      Pattern.compile("/console(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*/?");

  private ConsoleAssets() {}

  public static boolean isAsset(HttpServletRequest request) {
    String method = request.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return false;
    }
    String path = request.getRequestURI().substring(request.getContextPath().length());
    return isAssetPath(path);
  }

  static boolean isAssetPath(String path) {
    return ASSET_PATH.matcher(path).matches() && !path.contains("..");
  }
}
