package dev.threadline.operator.computer;

import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Names, labels and owners of the objects a computer run makes. Names are deterministic, so that a
 * restarted operator finds what it made before instead of making it again.
 */
public final class AgentObjects {
  /**
   * The standard component label; a run's sandbox Pod carries {@value #AGENT}, so the operator
   * watches only those.
   */
  public static final String COMPONENT = "app.kubernetes.io/component";

  public static final String AGENT = "agent";

  /**
   * Selects a run's sandbox objects (its Pod, credential Secret and NetworkPolicy): the informers
   * of the Run controller's sandbox dependents watch only these.
   */
  public static final String SELECTOR =
      Labels.MANAGED_BY + "=" + Labels.MANAGER + "," + COMPONENT + "=" + AGENT;

  private static final int MAX_LABEL_VALUE = 63;

  private AgentObjects() {}

  /**
   * The sandbox Pod is named after its Run: one Run, at most one Pod — unless the run claimed a
   * warm-pool Pod, whose name its status records.
   */
  public static String podName(Run run) {
    if (run.getStatus() != null && run.getStatus().getPod() != null) {
      return run.getStatus().getPod();
    }
    return run.getMetadata().getName();
  }

  /** The Secret with the sandbox's credential, which only the worker reads. */
  public static String sandboxCredentialName(Run run) {
    return run.getMetadata().getName() + "-sandbox";
  }

  public static String networkPolicyName(Run run) {
    return run.getMetadata().getName() + "-egress";
  }

  /**
   * {@code thread-7f3k} → {@code workspace-7f3k}: one claim per thread, so follow-ups see earlier
   * files.
   */
  public static String workspaceClaimName(String threadName) {
    int dash = threadName.indexOf('-');
    return "workspace-" + (dash < 0 ? threadName : threadName.substring(dash + 1));
  }

  /**
   * Labels of every object made for one run; the NetworkPolicy selects the Pod by the run label.
   */
  public static Map<String, String> labels(Run run) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.MANAGED_BY, Labels.MANAGER);
    labels.put(COMPONENT, AGENT);
    labels.put(Labels.THREAD, labelValue(run.getSpec().getThread()));
    labels.put(Labels.RUN, labelValue(run.getMetadata().getName()));
    return labels;
  }

  /** The label selector of the operator's agent Pod informer. */
  public static String podSelector() {
    return SELECTOR;
  }

  /**
   * A name as a label value: label values hold at most 63 characters, object names up to 253. A
   * longer name keeps its start and gets a hash of the whole, so the value stays unique and stable.
   */
  static String labelValue(String name) {
    if (name.length() <= MAX_LABEL_VALUE) {
      return name;
    }
    String hash = Sha256.hex(name).substring(0, 10);
    String head = name.substring(0, MAX_LABEL_VALUE - hash.length() - 1).replaceAll("[-.]+$", "");
    return head + "-" + hash;
  }

  /** The reference that makes the Run own an object: deleting the Run deletes it. */
  public static OwnerReference ownedBy(HasMetadata owner) {
    return OwnerReferences.blockingController(owner);
  }
}
