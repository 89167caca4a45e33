package dev.threadline.crds.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.CollectionType;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Jackson module that reads a custom resource which does not fit its class (a wrongly typed
 * field, e.g. after a CRD/operator version skew) as absent instead of failing: the object is logged
 * and dropped from lists. A watch event carrying it is dropped too: fabric8 reads a watch event's
 * object of a kind it has no class registered for as a generic resource and converts it to the
 * informer's class afterwards; that conversion yields null, which fabric8's informer refuses with
 * "Unrecognized resource" thrown on fabric8's own event thread (uncaught there: Awaitility, which
 * watches for uncaught exceptions, fails a test waiting at that moment) and skips, keeping the
 * watch and the cached copy of the object, if any. Without this module one such object fails every
 * list of its kind and stops the informers that read it. Each skip is logged as a warning and
 * handed to {@code onSkip} (which reports it as a Kubernetes Event).
 */
final class UnreadableResourceSkipping extends SimpleModule {
  private static final Logger log = LoggerFactory.getLogger(UnreadableResourceSkipping.class);

  UnreadableResourceSkipping(Consumer<UnreadableResource> onSkip) {
    super("threadline-unreadable-resource-skipping");
    setDeserializerModifier(
        new BeanDeserializerModifier() {
          @Override
          public JsonDeserializer<?> modifyDeserializer(
              DeserializationConfig config, BeanDescription bean, JsonDeserializer<?> reader) {
            if (bean.getBeanClass() == WatchEvent.class) {
              return new SkipUnreadableEvent(reader);
            }
            return isCustomResource(bean.getBeanClass())
                ? new SkipUnreadable(reader, onSkip)
                : reader;
          }

          @Override
          public JsonDeserializer<?> modifyCollectionDeserializer(
              DeserializationConfig config,
              CollectionType type,
              BeanDescription bean,
              JsonDeserializer<?> reader) {
            return isCustomResource(type.getContentType().getRawClass())
                ? new DropSkipped(reader)
                : reader;
          }
        });
  }

  /**
   * The deserialization's attribute under which {@link SkipUnreadable} leaves the object it
   * skipped, for the watch event around it ({@link SkipUnreadableEvent}) to name without reading it
   * again.
   */
  private static final Object SKIPPED = UnreadableResource.class;

  private static boolean isCustomResource(Class<?> type) {

    return CustomResource.class.isAssignableFrom(type);
  }

  /** Reads one object; null (and a log line naming it) when it does not fit its class. */
  private static final class SkipUnreadable extends DelegatingDeserializer {
    private final Consumer<UnreadableResource> onSkip;

    SkipUnreadable(JsonDeserializer<?> reader, Consumer<UnreadableResource> onSkip) {
      super(reader);
      this.onSkip = onSkip;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> reader) {
      return new SkipUnreadable(reader, onSkip);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      // Copy the whole object's tokens first (cheaper than a tree, read on every watch event), so
      // that a failure leaves the parser after it.
      TokenBuffer tokens = context.bufferAsCopyOfValue(parser);
      try (JsonParser objectParser = tokens.asParserOnFirstToken()) {
        if (objectParser.currentToken() == JsonToken.VALUE_NULL) {
          return null;
        }
        return _delegatee.deserialize(objectParser, context);
      } catch (JsonProcessingException unreadable) {
        JsonNode object;
        try (JsonParser again = tokens.asParserOnFirstToken()) {
          object = context.readTree(again);
        }
        UnreadableResource skipped = describe(object, unreadable);
        log.warn(
            "Skipping {}: field {} does not match this version's schema",
            skipped.describe(),
            skipped.field());
        onSkip.accept(skipped);
        context.setAttribute(SKIPPED, skipped);
        return null;
      }
    }
  }

  private static UnreadableResource describe(JsonNode object, JsonProcessingException problem) {
    JsonNode metadata = object.path("metadata");
    return new UnreadableResource(
        object.path("apiVersion").asText(""),
        object.path("kind").asText("?"),
        metadata.path("namespace").asText(""),
        metadata.path("name").asText("?"),
        metadata.path("uid").asText(""),
        metadata.path("resourceVersion").asText(""),
        fieldOf(problem));
  }

  /** The JSON path of the field that did not fit ({@code spec.model}); the value stays out. */
  private static String fieldOf(JsonProcessingException problem) {
    if (!(problem instanceof JsonMappingException mapping) || mapping.getPath().isEmpty()) {
      return "?";
    }
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference step : mapping.getPath()) {
      if (step.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(step.getFieldName());
      } else if (step.getIndex() >= 0) {
        path.append('[').append(step.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /**
   * Turns a watch event whose object {@link SkipUnreadable} dropped into a bookmark at that
   * object's resourceVersion: the informer skips the event (its cache keeps the last version it
   * could read) and watches on. Passed on without an object, the event would end the watch with an
   * exception that stops the informer.
   */
  private static final class SkipUnreadableEvent extends DelegatingDeserializer {
    SkipUnreadableEvent(JsonDeserializer<?> reader) {
      super(reader);
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> reader) {
      return new SkipUnreadableEvent(reader);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      // Read once, not buffered: the object's own reader buffers it, and names what it skipped.
      context.setAttribute(SKIPPED, null);
      Object read = _delegatee.deserialize(parser, context);
      if (read instanceof WatchEvent event
          && event.getObject() == null
          && !"ERROR".equals(event.getType())) {
        UnreadableResource skipped = (UnreadableResource) context.getAttribute(SKIPPED);
        GenericKubernetesResource mark = new GenericKubernetesResource();
        ObjectMetaBuilder metadata = new ObjectMetaBuilder();
        if (skipped != null) {
          mark.setApiVersion(blankAsNull(skipped.apiVersion()));
          mark.setKind(skipped.kind());
          metadata
              .withNamespace(blankAsNull(skipped.namespace()))
              .withName(skipped.name())
              .withResourceVersion(blankAsNull(skipped.resourceVersion()));
        }
        mark.setMetadata(metadata.build());
        event.setType("BOOKMARK");
        event.setObject(mark);
      }
      return read;
    }

    private static String blankAsNull(String value) {
      return value.isEmpty() ? null : value;
    }
  }

  /** Reads a list of custom resources without the ones {@link SkipUnreadable} dropped. */
  private static final class DropSkipped extends DelegatingDeserializer {
    DropSkipped(JsonDeserializer<?> reader) {
      super(reader);
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> reader) {
      return new DropSkipped(reader);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      Object items = _delegatee.deserialize(parser, context);
      if (items instanceof Collection<?> collection) {
        collection.removeIf(Objects::isNull);
      }
      return items;
    }
  }
}
