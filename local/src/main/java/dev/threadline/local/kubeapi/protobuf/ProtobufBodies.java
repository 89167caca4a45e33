package dev.threadline.local.kubeapi.protobuf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Rbac;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Request bodies in kube-apiserver's protobuf encoding ({@code
 * application/vnd.kubernetes.protobuf}, which kubectl uses for built-in kinds), read into the JSON
 * the rest of the embedded API works on. The envelope is kube's: the magic {@code k8s\0}, then a
 * {@code runtime.Unknown} naming the object's apiVersion and kind around its bytes; the object is
 * decoded with Kubernetes' generated message descriptors (the official Java client's proto module),
 * for the built-in groups the embedded API serves.
 */
public final class ProtobufBodies {
  public static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  /** Each served group-version's generated descriptors, by apiVersion. */
  private static final Map<String, FileDescriptor> FILES =
      Map.of(
          "v1", V1.getDescriptor(),
          "apps/v1", V1Apps.getDescriptor(),
          "batch/v1", V1Batch.getDescriptor(),
          "networking.k8s.io/v1", V1Networking.getDescriptor(),
          "rbac.authorization.k8s.io/v1", V1Rbac.getDescriptor(),
          "authorization.k8s.io/v1", V1Authorization.getDescriptor());

  private static final Map<String, Descriptor> KINDS = new HashMap<>();

  static {
    FILES.forEach((apiVersion, file) ->
        file.getMessageTypes().forEach(type -> KINDS.put(apiVersion + "/" + type.getName(), type)));
  }

  private ProtobufBodies() {}

  /** Whether a request's Content-Type names the protobuf encoding. */
  public static boolean isProtobuf(String contentType) {
    return contentType != null
        && contentType.toLowerCase(Locale.ROOT).strip().startsWith(CONTENT_TYPE);
  }

  /**
   * The object a protobuf body holds, as JSON.
   *
   * @throws UnsupportedKindException when its kind has no protobuf type here
   * @throws IllegalArgumentException when the body is no kube protobuf object
   */
  public static ObjectNode toJson(byte[] body) {
    if (body == null
        || body.length < MAGIC.length
        || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IllegalArgumentException(
          "the body is not a Kubernetes protobuf object (it lacks the k8s\\0 prefix)");
    }
    Runtime.Unknown envelope;
    try {
      envelope =
          Runtime.Unknown.parseFrom(
              java.nio.ByteBuffer.wrap(body, MAGIC.length, body.length - MAGIC.length));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("the protobuf envelope is unreadable: " + e.getMessage());
    }
    if (!envelope.getContentEncoding().isEmpty()) {
      throw new IllegalArgumentException(
          "unsupported content encoding " + envelope.getContentEncoding());
    }
    String apiVersion = envelope.getTypeMeta().getApiVersion();
    String kind = envelope.getTypeMeta().getKind();
    Descriptor type = KINDS.get(apiVersion + "/" + kind);
    if (type == null) {
      throw new UnsupportedKindException(apiVersion, kind);
    }
    DynamicMessage object;
    try {
      object = DynamicMessage.parseFrom(type, envelope.getRaw());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "the " + kind + " in the body is unreadable: " + e.getMessage());
    }
    ObjectNode json = ProtobufJson.object(object);
    ObjectNode typed = json.objectNode();
    typed.put("apiVersion", apiVersion);
    typed.put("kind", kind);
    typed.setAll(json);
    return typed;
  }

  /** A kind the protobuf types here do not cover: the client should send JSON. */
  public static final class UnsupportedKindException extends IllegalArgumentException {
    UnsupportedKindException(String apiVersion, String kind) {
      super("no protobuf type for " + kind + " in " + apiVersion + ": send it as JSON");
    }
  }
}
