package dev.threadline.local.kubeapi;

import dev.threadline.crds.CrdManifests;
import dev.threadline.local.kubeapi.store.StoreOptions;
import dev.threadline.local.podlog.PodLogSource;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How to start an {@link EmbeddedKubernetesApi}.
 *
 * @param host the address to bind, {@code 127.0.0.1} unless told otherwise
 * @param port the port to bind; 0 picks a free one
 * @param podLogs where Pod logs come from (the process kubelet)
 * @param crdResources CRD manifests (YAML or JSON) to install at start
 * @param storeFile the SQLite database that holds the objects; null for a temporary one, deleted
 *     when the API stops
 * @param storeOptions compaction, watch queue and bookmark settings of the store
 * @param eventTtl how long an Event stays after its last write (kube-apiserver's {@code
 *     --event-ttl}; {@value #EVENT_TTL} in local mode, default 1 h)
 */
public record EmbeddedApiSettings(
    String host,
    int port,
    PodLogSource podLogs,
    List<URL> crdResources,
    Path storeFile,
    StoreOptions storeOptions,
    Duration eventTtl) {
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** The local mode's variable for {@link #eventTtl()}. */
  public static final String EVENT_TTL = "THREADLINE_KUBE_EVENT_TTL";

  public static final Duration DEFAULT_EVENT_TTL = Duration.ofHours(1);

  /** A source that has no logs: every Pod is still waiting to start. */
  public static final PodLogSource NO_POD_LOGS = (namespace, pod, container) -> Optional.empty();

  public EmbeddedApiSettings {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(podLogs, "podLogs");
    crdResources = List.copyOf(crdResources);
    Objects.requireNonNull(storeOptions, "storeOptions");
    if (eventTtl.isNegative() || eventTtl.isZero()) {
      throw new IllegalArgumentException(EVENT_TTL + " must be positive, got " + eventTtl);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
  }

  /** 127.0.0.1, any free port, no pod logs, the Threadline CRDs found on the classpath. */
  public static EmbeddedApiSettings defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private String host = DEFAULT_HOST;
    private int port;
    private PodLogSource podLogs = NO_POD_LOGS;
    private List<URL> crdResources;
    private Path storeFile;
    private StoreOptions storeOptions = StoreOptions.defaults();
    private Duration eventTtl = DEFAULT_EVENT_TTL;

    private Builder() {}

    public Builder host(String host) {
      this.host = host;
      return this;
    }

    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder podLogs(PodLogSource podLogs) {
      this.podLogs = podLogs;
      return this;
    }

    /**
     * Replaces the default CRDs (every {@code *.threadline.dev.yaml} in {@link
     * CrdManifests#FOLDER}).
     */
    public Builder crdResources(List<URL> crdResources) {
      this.crdResources = crdResources;
      return this;
    }

    /** Keeps the objects in this SQLite file, across restarts (default: a temporary file). */
    public Builder storeFile(Path storeFile) {
      this.storeFile = storeFile;
      return this;
    }

    public Builder storeOptions(StoreOptions storeOptions) {
      this.storeOptions = storeOptions;
      return this;
    }

    public Builder eventTtl(Duration eventTtl) {
      this.eventTtl = eventTtl;
      return this;
    }

    public EmbeddedApiSettings build() {
      List<URL> crds =
          crdResources != null
              ? crdResources
              : CrdResources.threadlineCrds(Builder.class.getClassLoader());
      return new EmbeddedApiSettings(host, port, podLogs, crds, storeFile, storeOptions, eventTtl);
    }
  }
}
