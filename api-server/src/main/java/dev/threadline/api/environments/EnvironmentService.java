package dev.threadline.api.environments;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.api.webhooks.ConfiguredOn;
import dev.threadline.api.webhooks.WebhookChange;
import dev.threadline.api.webhooks.WebhookSecrets;
import dev.threadline.api.webhooks.WebhookTargets;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentPackages;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentValues;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Environment CRUD of one tenant. Everything is looked up in the tenant's own namespace, so another
 * user's environment, a malformed id and a missing environment are the same 404. Values of
 * variables, secrets and bearer tokens go to the environment's own Secret, never into its spec.
 */
public final class EnvironmentService {
  private static final Logger log = LoggerFactory.getLogger(EnvironmentService.class);

  private final EnvironmentStore store;
  private final DefaultEnvironments defaults;
  private final WebhookSecrets webhookSecrets;
  private final WebhookTargets webhookTargets;
  private final Clock clock;

  EnvironmentService(
      EnvironmentStore store,
      DefaultEnvironments defaults,
      WebhookSecrets webhookSecrets,
      WebhookTargets webhookTargets,
      Clock clock) {
    this.store = store;
    this.defaults = defaults;
    this.webhookSecrets = webhookSecrets;
    this.webhookTargets = webhookTargets;
    this.clock = clock;
  }

  public EnvironmentView create(Tenant tenant, EnvironmentRequests.Create request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    String name = ResourceIds.toName(ResourceIds.newId(EnvironmentMapper.ID_PREFIX)).orElseThrow();
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName(EnvironmentInputs.name(request.name()));
    SecretValues values = SecretValues.none();
    new SpecChange(request).applyTo(spec, EnvironmentValues.secretName(name), values);
    WebhookChange webhooks = webhookTargets.change(request.webhooks(), ConfiguredOn.ENVIRONMENT);
    WebhookChange.Resolved resolved =
        webhooks == null ? null : webhooks.resolve(name, List.of(), Map.of());
    if (resolved != null) {
      spec.setWebhooks(resolved.endpoints());
    }
    spec.setIsDefault(
        false); // made default below, through the one path that keeps a single default
    Environment created =
        store.create(
            EnvironmentMapper.newEnvironment(tenant.namespace(), name, spec, clock.instant()));
    try {
      if (!values.data().isEmpty()) {
        store.writeValues(created, values.data());
      }
      if (resolved != null) {
        webhookSecrets.write(created, resolved);
      }
    } catch (RuntimeException failed) {
      // Never leave an environment whose spec names values that were not stored.
      store.delete(tenant.namespace(), name);
      throw failed;
    }
    if (Boolean.TRUE.equals(request.isDefault())) {
      created = defaults.setDefault(tenant.namespace(), name);
    }
    log.info("Environment({}/{}) created", tenant.namespace(), name);
    return EnvironmentMapper.toView(
        created, tenant.userId(), resolved == null ? Map.of() : resolved.generated());
  }

  public ListEnvelope<EnvironmentSummary> list(
      Tenant tenant, boolean active, Boolean isDefault, PageRequest page) {
    List<Environment> sorted =
        store.list(tenant.namespace()).stream()
            .filter(environment -> EnvironmentMapper.isActive(environment) == active)
            .filter(environment ->
                isDefault == null || EnvironmentMapper.isDefault(environment) == isDefault)
            .sorted(EnvironmentMapper.LIST_ORDER)
            .toList();
    return page.apply(sorted).map(EnvironmentMapper::toSummary);
  }

  public EnvironmentView get(Tenant tenant, String environmentId) {
    return EnvironmentMapper.toView(find(tenant, environmentId), tenant.userId());
  }

  static final String NO_DEFAULT_FOR_READERS =
      "No default environment yet; a key that may write environments creates it on first use";

  /** The default environment; created when there is none and {@code mayCreate}, else 404. */
  public EnvironmentView getDefault(Tenant tenant, boolean mayCreate) {
    Environment environment =
        mayCreate
            ? defaults.getOrCreate(tenant.namespace())
            : defaults
                .current(tenant.namespace())
                .orElseThrow(() -> new ApiException(ErrorKind.NOT_FOUND, NO_DEFAULT_FOR_READERS));
    return EnvironmentMapper.toView(environment, tenant.userId());
  }

  public EnvironmentView setDefault(Tenant tenant, String environmentId) {
    String name = nameOf(environmentId);
    find(tenant, environmentId);
    return EnvironmentMapper.toView(defaults.setDefault(tenant.namespace(), name), tenant.userId());
  }

  public EnvironmentView update(
      Tenant tenant, String environmentId, EnvironmentRequests.Update request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    String name = nameOf(environmentId);
    SpecChange change = new SpecChange(request);
    String displayName = request.name() == null ? null : EnvironmentInputs.name(request.name());
    WebhookChange webhooks = webhookTargets.change(request.webhooks(), ConfiguredOn.ENVIRONMENT);
    Map<String, String> stored =
        change.touchesValues() ? store.values(tenant.namespace(), name) : Map.of();
    Map<String, String> storedSecrets =
        webhooks == null ? Map.of() : webhookSecrets.read(tenant.namespace(), name);
    AtomicReference<WebhookChange.Resolved> resolved = new AtomicReference<>();
    AtomicReference<SecretValues> values = new AtomicReference<>();
    Environment updated =
        store
            .update(
                tenant.namespace(),
                name,
                current -> {
                  EnvironmentSpec spec = EnvironmentMapper.spec(current);
                  current.setSpec(spec);
                  if (displayName != null) {
                    spec.setDisplayName(displayName);
                  }
                  values.set(SecretValues.startingFrom(stored));
                  change.applyTo(spec, EnvironmentValues.secretName(name), values.get());
                  if (Boolean.FALSE.equals(request.isDefault())
                      || Boolean.FALSE.equals(request.isActive())) {
                    spec.setIsDefault(false);
                  }
                  if (request.isActive() != null) {
                    spec.setIsActive(request.isActive());
                  }
                  if (webhooks != null) {
                    resolved.set(webhooks.resolve(name, spec.getWebhooks(), storedSecrets));
                    spec.setWebhooks(resolved.get().endpoints());
                  }
                  RestResources.touch(current, clock.instant());
                  return current;
                })
            .orElseThrow(() -> notFound(environmentId));
    if (change.touchesValues() && values.get().changed()) {
      store.writeValues(updated, values.get().data());
    }
    if (resolved.get() != null) {
      webhookSecrets.write(updated, resolved.get());
    }
    if (Boolean.TRUE.equals(request.isDefault())) {
      updated = defaults.setDefault(tenant.namespace(), name);
    }
    return EnvironmentMapper.toView(
        updated, tenant.userId(), resolved.get() == null ? Map.of() : resolved.get().generated());
  }

  /**
   * Soft delete (hidden, no longer the default) unless {@code hard}: then the resource and its
   * Secret go.
   */
  public EnvironmentResponses.Deleted delete(Tenant tenant, String environmentId, boolean hard) {
    String name = nameOf(environmentId);
    if (hard) {
      if (!store.delete(tenant.namespace(), name)) {
        throw notFound(environmentId);
      }
      webhookSecrets.delete(tenant.namespace(), name);
      log.info("Environment({}/{}) deleted", tenant.namespace(), name);
    } else {
      store
          .update(
              tenant.namespace(),
              name,
              current -> {
                EnvironmentSpec spec = EnvironmentMapper.spec(current);
                spec.setIsActive(false);
                spec.setIsDefault(false);
                current.setSpec(spec);
                RestResources.setAnnotation(current, DefaultEnvironments.DEFAULT_SINCE, null);
                RestResources.touch(current, clock.instant());
                return current;
              })
          .orElseThrow(() -> notFound(environmentId));
      log.info("Environment({}/{}) deactivated", tenant.namespace(), name);
    }
    return new EnvironmentResponses.Deleted(true, environmentId, hard);
  }

  /** The tenant's environment from the cache, or 404. Shared object: do not modify. */
  Environment find(Tenant tenant, String environmentId) {
    return store
        .find(tenant.namespace(), nameOf(environmentId))
        .orElseThrow(() -> notFound(environmentId));
  }

  static String nameOf(String environmentId) {
    return ResourceIds.toName(environmentId, EnvironmentMapper.ID_PREFIX)
        .orElseThrow(() -> notFound(environmentId));
  }

  static String idOf(String name) {
    return ResourceIds.toId(name);
  }

  static ApiException notFound(String environmentId) {
    return ApiException.notFound("Environment " + environmentId);
  }

  /** The validated optional fields of a create or update request; null means "leave as is". */
  private static final class SpecChange {
    private final String description;
    private final boolean descriptionGiven;
    private final String baseImage;
    private final boolean baseImageGiven;
    private final Map<String, String> runtimes;
    private final EnvironmentPackages packages;
    private final String extensions;
    private final boolean extensionsGiven;
    private final List<EnvironmentRequests.VariableInput> variables;
    private final List<EnvironmentRequests.SecretInput> secrets;
    private final List<EnvironmentRequests.McpServerInput> mcpServers;
    private final List<dev.threadline.crds.environment.EnvironmentSetupScript> setupScripts;
    private final List<dev.threadline.crds.environment.EnvironmentDocument> documentation;
    private final Boolean internetAccess;
    private final dev.threadline.crds.environment.WarmPool warmPool;

    SpecChange(EnvironmentRequests.SpecFields request) {
      this(
          request.description(),
          request.baseImage(),
          request.runtimes(),
          request.packages(),
          request.dockerfileExtensions(),
          request.environmentVariables(),
          request.secrets(),
          request.setupScripts(),
          request.mcpServers(),
          request.documentation(),
          request.internetAccess(),
          request.warmPool());
    }

    // Everything that needs no stored state is validated here, before any round trip; the lists
    // with values are checked in applyTo, against what is stored.
    private SpecChange(
        String description,
        String baseImage,
        Map<String, String> runtimes,
        EnvironmentRequests.PackagesInput packages,
        String extensions,
        List<EnvironmentRequests.VariableInput> variables,
        List<EnvironmentRequests.SecretInput> secrets,
        List<EnvironmentRequests.SetupScriptInput> setupScripts,
        List<EnvironmentRequests.McpServerInput> mcpServers,
        List<EnvironmentRequests.DocumentInput> documentation,
        Boolean internetAccess,
        EnvironmentRequests.WarmPoolInput warmPool) {
      this.descriptionGiven = description != null;
      this.description = EnvironmentInputs.description(description);
      this.baseImageGiven = baseImage != null;
      this.baseImage = EnvironmentInputs.baseImage(baseImage);
      this.runtimes = runtimes == null ? null : EnvironmentInputs.runtimes(runtimes);
      this.packages = packages == null ? null : EnvironmentInputs.packages(packages);
      this.extensionsGiven = extensions != null;
      this.extensions = EnvironmentInputs.dockerfileExtensions(extensions);
      this.variables = variables;
      this.secrets = secrets;
      this.mcpServers = mcpServers;
      this.setupScripts =
          setupScripts == null ? null : EnvironmentInputs.setupScripts(setupScripts);
      this.documentation =
          documentation == null ? null : EnvironmentInputs.documentation(documentation);
      this.internetAccess = internetAccess;
      this.warmPool = EnvironmentInputs.warmPool(warmPool);
    }

    boolean touchesValues() {
      return variables != null || secrets != null || mcpServers != null;
    }

    void applyTo(EnvironmentSpec spec, String secretName, SecretValues values) {
      if (descriptionGiven) {
        spec.setDescription(description);
      }
      if (baseImageGiven) {
        spec.setBaseImage(baseImage);
      }
      if (runtimes != null) {
        spec.setRuntimes(runtimes);
      }
      if (packages != null) {
        spec.setPackages(packages);
      }
      if (extensionsGiven) {
        spec.setDockerfileExtensions(extensions);
      }
      if (setupScripts != null) {
        spec.setSetupScripts(setupScripts);
      }
      if (documentation != null) {
        spec.setDocumentation(documentation);
      }
      if (internetAccess != null) {
        spec.setInternetAccess(internetAccess);
      }
      if (warmPool != null) {
        spec.setWarmPool(warmPool.getSize() == 0 ? null : warmPool);
      }
      // Lists with values: what is kept or replaced depends on the stored state, hence here.
      carryUnchanged(spec, values, secretName);
      if (variables != null) {
        spec.setEnvironmentVariables(
            EnvironmentInputs.variables(
                variables,
                Optional.ofNullable(spec.getEnvironmentVariables()).orElse(List.of()),
                values));
      }
      if (secrets != null) {
        spec.setSecrets(
            EnvironmentInputs.secrets(
                secrets, Optional.ofNullable(spec.getSecrets()).orElse(List.of()), values));
      }
      if (mcpServers != null) {
        spec.setMcpServers(
            EnvironmentInputs.mcpServers(
                mcpServers,
                Optional.ofNullable(spec.getMcpServers()).orElse(List.of()),
                secretName,
                values));
      }
    }

    /** Values of the lists this request leaves alone stay in the Secret. */
    private void carryUnchanged(EnvironmentSpec spec, SecretValues values, String secretName) {
      if (variables == null) {
        Optional.ofNullable(spec.getEnvironmentVariables()).orElse(List.of()).stream()
            .filter(v -> v.getValueFrom() == null)
            .forEach(v -> values.carry(EnvironmentValues.variableKey(v.getKey())));
      }
      if (secrets == null) {
        Optional.ofNullable(spec.getSecrets()).orElse(List.of()).stream()
            .filter(s -> s.getValueFrom() == null)
            .forEach(s -> values.carry(EnvironmentValues.secretKey(s.getName())));
      }
      if (mcpServers == null) {
        Optional.ofNullable(spec.getMcpServers()).orElse(List.of()).stream()
            .filter(m ->
                m.getBearerTokenFrom() != null
                    && m.getBearerTokenFrom().getSecretKeyRef() != null
                    && secretName.equals(m.getBearerTokenFrom().getSecretKeyRef().getName()))
            .forEach(m -> values.carry(m.getBearerTokenFrom().getSecretKeyRef().getKey()));
      }
    }
  }
}
