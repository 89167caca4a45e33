package dev.threadline.crds.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.CollectionType;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.util.Collection;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Jackson module that reads a custom resource which does not fit its class (a wrongly typed
 * field, e.g. after a CRD/operator version skew) as absent instead of failing: the object is logged
 * and dropped from lists, and a watch event carrying it ends that watch, after which the informer
 * lists again without it. Without this one such object fails every list of its kind and stops the
 * informers that read it.
 */
final class UnreadableResourceSkipping extends SimpleModule {
  private static final Logger log = LoggerFactory.getLogger(UnreadableResourceSkipping.class);

  UnreadableResourceSkipping() {
    super("threadline-unreadable-resource-skipping");
    setDeserializerModifier(
        new BeanDeserializerModifier() {
          @Override
          public JsonDeserializer<?> modifyDeserializer(
              DeserializationConfig config, BeanDescription bean, JsonDeserializer<?> reader) {
            return isCustomResource(bean.getBeanClass()) ? new SkipUnreadable(reader) : reader;
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

  private static boolean isCustomResource(Class<?> type) {
    return CustomResource.class.isAssignableFrom(type);
  }

  /** Reads one object; null (and a log line naming it) when it does not fit its class. */
  private static final class SkipUnreadable extends DelegatingDeserializer {
    SkipUnreadable(JsonDeserializer<?> reader) {
      super(reader);
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> reader) {
      return new SkipUnreadable(reader);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      // Read the whole object first, so that a failure leaves the parser after it.
      JsonNode object = parser.readValueAsTree();
      if (object == null || object.isNull()) {
        return null;
      }
      try (JsonParser objectParser = object.traverse(parser.getCodec())) {
        objectParser.nextToken();
        return _delegatee.deserialize(objectParser, context);
      } catch (JsonProcessingException unreadable) {
        log.error(
            "Skipping {} {}/{}: it does not match this version's schema ({})",
            object.path("kind").asText("?"),
            object.path("metadata").path("namespace").asText(""),
            object.path("metadata").path("name").asText("?"),
            unreadable.getOriginalMessage());
        return null;
      }
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
