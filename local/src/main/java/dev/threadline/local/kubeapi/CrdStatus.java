package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The status an API server gives a CRD once it serves it (Established, NamesAccepted). Nothing
 * reconciles CRDs here, so a stored CRD is established at once.
 */
final class CrdStatus {
  private CrdStatus() {}

  static void markEstablished(ObjectNode crd) {
    if (crd.has("status") && crd.get("status").has("conditions")) {
      return;
    }
    ObjectNode status = crd.putObject("status");
    status.set("acceptedNames", crd.path("spec").path("names").deepCopy());
    ArrayNode conditions = status.putArray("conditions");
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    for (String type : new String[] {"NamesAccepted", "Established"}) {
      ObjectNode condition = conditions.addObject();
      condition.put("type", type);
      condition.put("status", "True");
      condition.put("lastTransitionTime", now);
      condition.put("reason", type.equals("Established") ? "InitialNamesAccepted" : "NoConflicts");
      condition.put(
          "message",
          type.equals("Established")
              ? "the initial names have been accepted"
              : "no conflicts found");
    }
    ArrayNode stored = status.putArray("storedVersions");
    crd.path("spec")
        .path("versions")
        .forEach(v -> {
          if (v.path("storage").asBoolean(false)) {
            stored.add(v.path("name").asText());
          }
        });
  }
}
