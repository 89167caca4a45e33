package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A field selector on a custom resource's own field (a CRD's {@code selectableFields}), used only
 * where the API server answers it: Kubernetes 1.31 (beta, on by default) and later, with a CRD that
 * declares the field. Asked once, when an informer starts: the server's version, then one list with
 * the selector and {@code limit=1}, which an older server, one with the feature off, or a CRD not
 * yet upgraded refuses with 400. Where it is not answered the informer watches without it (and the
 * caller's own checks, which never rely on the selection, filter what it gets).
 */
public final class SelectableFields {
  private static final Logger LOG = LoggerFactory.getLogger(SelectableFields.class);

  /** The first Kubernetes minor version (of 1.x) that selects custom resources by their fields. */
  static final int FIRST_MINOR = 31;

  private SelectableFields() {}

  /**
   * {@code resources} selected by {@code field=value} where the server answers that, else as is.
   */
  public static <T extends HasMetadata, L extends KubernetesResourceList<T>, R extends Resource<T>>
      FilterWatchListDeletable<T, L, R> selectIfServed(
          KubernetesClient client,
          FilterWatchListDeletable<T, L, R> resources,
          String field,
          String value) {
    String selector = field + "=" + value;
    String version = version(client);
    if (!declaresFieldSelectors(version)) {
      LOG.warn(
          "The API server (Kubernetes {}) selects custom resources by name and namespace only"
              + " (their own fields from 1.31): watching without {}",
          version,
          selector);
      return resources;
    }
    FilterWatchListDeletable<T, L, R> selected = resources.withField(field, value);
    try {
      selected.list(new ListOptionsBuilder().withLimit(1L).build());
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_BAD_REQUEST) {
        throw e;
      }
      LOG.warn(
          "The API server refuses the field selector {} ({}); is the CRD up to date? Watching"
              + " without it",
          selector,
          e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
      return resources;
    }
    LOG.info("Watching with the field selector {}", selector);
    return selected;
  }

  private static String version(KubernetesClient client) {
    try {
      VersionInfo info = client.getKubernetesVersion();
      return info == null ? "unknown" : info.getMajor() + "." + info.getMinor();
    } catch (KubernetesClientException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** Whether a version ({@code 1.32}; a provider's {@code 1.31+} too) is 1.31 or later. */
  static boolean declaresFieldSelectors(String version) {
    String[] parts = version.split("\\.", 2);
    if (parts.length < 2) {
      return false;
    }
    int major = leadingNumber(parts[0]);
    int minor = leadingNumber(parts[1]);
    return major > 1 || (major == 1 && minor >= FIRST_MINOR);
  }

  private static int leadingNumber(String text) {
    int end = 0;
    while (end < text.length() && Character.isDigit(text.charAt(end))) {
      end++;
    }
    return end == 0 ? -1 : Integer.parseInt(text.substring(0, end));
  }
}
