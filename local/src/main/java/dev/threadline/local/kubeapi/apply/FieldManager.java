package dev.threadline.local.kubeapi.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Server-side apply and field ownership, as kube-apiserver's field manager does them with
 * structured-merge-diff: every write records in {@code metadata.managedFields} which manager set
 * which fields; an apply merges its configuration into the live object, refuses to change a field
 * another manager owns unless forced (then takes it over), and removes the fields its manager
 * applied before, no longer sends, and nobody else owns. Plain updates never conflict: their
 * manager takes over the fields it changes.
 */
public final class FieldManager {
  /** A field an apply would change that {@code manager} owns. */
  public record Conflict(String manager, String apiVersion, String field) {}

  /**
   * What an apply leads to: the merged object and its new {@code managedFields} (which {@link
   * #stamp} writes into the object finally stored), or the conflicts that refuse it.
   */
  public record Applied(ObjectNode object, ArrayNode managedFields, List<Conflict> conflicts) {
    public boolean conflicted() {
      return !conflicts.isEmpty();
    }

    /** Sets these managed fields on {@code stored}. */
    public void stamp(ObjectNode stored) {
      ObjectNode metadata = ManagedFields.metadata(stored);
      if (managedFields == null || managedFields.isEmpty()) {
        metadata.remove("managedFields");
      } else {
        metadata.set("managedFields", managedFields.deepCopy());
      }
    }
  }

  private FieldManager() {}

  /**
   * Records a write that is not an apply (create, update, patch) by {@code manager} on {@code
   * next}, the object about to be stored; {@code live} is the stored one (null on create), {@code
   * subresource} null or {@code status}. Managed fields the client sent are kept when they differ
   * from the stored ones (as kube-apiserver lets a client reset them), else the stored ones count.
   */
  public static void recordUpdate(
      JsonNode schema, JsonNode live, ObjectNode next, String manager, String subresource) {
    MergeSchema root = MergeSchema.root(schema);
    List<ManagedFields.Entry> entries = base(live, next);
    FieldSet changed =
        live == null ? ObjectFields.of(root, next) : ObjectFields.changed(root, live, next);
    FieldSet removed =
        live == null
            ? new FieldSet()
            : ObjectFields.of(root, live).minus(ObjectFields.of(root, next));
    String now = ManagedFields.now();
    List<ManagedFields.Entry> result = new ArrayList<>();
    boolean found = false;
    for (ManagedFields.Entry entry : entries) {
      FieldSet kept = entry.fields().minus(removed);
      if (entry.sameOwner(manager, ManagedFields.UPDATE, subresource)) {
        found = true;
        result.add(entry.withFields(kept.union(changed), now));
      } else {
        result.add(entry.withFields(kept.minus(changed), now));
      }
    }
    if (!found && !changed.isEmpty()) {
      result.add(
          new ManagedFields.Entry(
              manager,
              ManagedFields.UPDATE,
              next.path("apiVersion").asText(""),
              now,
              subresource,
              changed));
    }
    ManagedFields.write(next, result);
  }

  private static List<ManagedFields.Entry> base(JsonNode live, ObjectNode next) {
    JsonNode sent = next.path("metadata").get("managedFields");
    JsonNode stored = live == null ? null : live.path("metadata").get("managedFields");
    if (sent != null && sent.isArray() && !sent.isEmpty() && !sent.equals(stored)) {
      return ManagedFields.read(next);
    }
    return ManagedFields.read(live);
  }

  /**
   * Applies {@code config} (without server-set metadata, and for a kind with a status subresource
   * only the part the request's path may change) by {@code manager} to {@code live} (null when the
   * object does not exist yet). {@code defaults} fills in the schema's defaults, as the server does
   * to the merged object before comparing it with the live one: a defaulted field the configuration
   * leaves out is no change.
   */
  public static Applied apply(
      JsonNode schema,
      JsonNode live,
      ObjectNode config,
      String manager,
      boolean force,
      String subresource,
      Consumer<ObjectNode> defaults) {
    MergeSchema root = MergeSchema.root(schema);
    ObjectNode applied = config.deepCopy();
    ManagedFields.metadata(applied).remove("managedFields");
    FieldSet sent = ObjectFields.of(root, applied);
    ObjectNode merged = (ObjectNode) ObjectFields.merge(root, live, applied);
    defaults.accept(merged);
    FieldSet changed =
        live == null ? ObjectFields.of(root, merged) : ObjectFields.changed(root, live, merged);
    List<ManagedFields.Entry> entries = ManagedFields.read(live);

    List<Conflict> conflicts = new ArrayList<>();
    for (ManagedFields.Entry entry : entries) {
      if (entry.manager().equals(manager) || !Objects.equals(entry.subresource(), subresource)) {
        continue;
      }
      for (List<String> path : entry.fields().intersection(changed).paths()) {
        conflicts.add(new Conflict(entry.manager(), entry.apiVersion(), FieldSet.describe(path)));
      }
    }
    if (!conflicts.isEmpty() && !force) {
      return new Applied(null, null, conflicts);
    }

    String now = ManagedFields.now();
    FieldSet previous = new FieldSet();
    FieldSet others = new FieldSet();
    List<ManagedFields.Entry> kept = new ArrayList<>();
    for (ManagedFields.Entry entry : entries) {
      if (entry.sameOwner(manager, ManagedFields.APPLY, subresource)) {
        previous = entry.fields();
        continue;
      }
      ManagedFields.Entry remaining = entry.withFields(entry.fields().minus(changed), now);
      others = others.union(remaining.fields());
      kept.add(remaining);
    }
    FieldSet dropped = new FieldSet();
    for (List<String> path : previous.minus(sent).paths()) {
      if (!others.touches(path) && !sent.touches(path)) {
        ObjectFields.remove(merged, path);
        dropped.insert(path);
      }
    }
    List<ManagedFields.Entry> result = new ArrayList<>();
    ManagedFields.Entry mine =
        new ManagedFields.Entry(
            manager,
            ManagedFields.APPLY,
            applied.path("apiVersion").asText(""),
            now,
            subresource,
            sent);
    boolean placed = false;
    for (ManagedFields.Entry entry : entries) {
      if (entry.sameOwner(manager, ManagedFields.APPLY, subresource)) {
        result.add(entry.withFields(sent, now));
        placed = true;
      } else {
        ManagedFields.Entry other = kept.remove(0);
        result.add(other.withFields(other.fields().minus(dropped), now));
      }
    }
    if (!placed) {
      result.add(mine);
    }
    ObjectNode stamped = merged.deepCopy();
    ManagedFields.write(stamped, result);
    JsonNode managed = stamped.path("metadata").get("managedFields");
    return new Applied(
        merged,
        managed instanceof ArrayNode array ? array : FieldSet.MAPPER.createArrayNode(),
        List.of());
  }

  /**
   * The 409 message kube-apiserver gives: {@code Apply failed with 1 conflict: conflict with
   * "manager" using v1: .data.key}, or per manager a list of its fields.
   */
  public static String conflictMessage(List<Conflict> conflicts) {
    StringBuilder message =
        new StringBuilder("Apply failed with ")
            .append(conflicts.size())
            .append(conflicts.size() == 1 ? " conflict: " : " conflicts: ");
    if (conflicts.size() == 1) {
      Conflict only = conflicts.get(0);
      return message.append(owner(only)).append(": ").append(only.field()).toString();
    }
    List<String> lines = new ArrayList<>();
    String current = null;
    for (Conflict conflict : conflicts) {
      String owner = owner(conflict);
      if (!owner.equals(current)) {
        lines.add(owner.replaceFirst("^conflict with", "conflicts with") + ":");
        current = owner;
      }
      lines.add("- " + conflict.field());
    }
    return message.append(String.join("\n", lines)).toString();
  }

  /** A cause's message: {@code conflict with "manager" using apps/v1}. */
  public static String owner(Conflict conflict) {
    return "conflict with \"" + conflict.manager() + "\" using " + conflict.apiVersion();
  }
}
