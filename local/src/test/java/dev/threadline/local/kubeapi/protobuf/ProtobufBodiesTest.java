package dev.threadline.local.kubeapi.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProtobufBodiesTest {
  private static byte[] envelope(String apiVersion, String kind, Message object) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {'k', '8', 's', 0});
    out.writeBytes(
        Runtime.Unknown.newBuilder()
            .setTypeMeta(
                Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind).build())
            .setRaw(object.toByteString())
            .build()
            .toByteArray());
    return out.toByteArray();
  }

  @Test
  void aConfigMapAndASecretAreReadAsTheirJson() {
    V1.ConfigMap configMap =
        V1.ConfigMap.newBuilder()
            .setMetadata(
                Meta.ObjectMeta.newBuilder()
                    .setName("x")
                    .setNamespace("alice")
                    .putLabels("app", "demo")
                    .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(0).build()))
            .putData("f", "hello\n")
            .build();
    JsonNode json = ProtobufBodies.toJson(envelope("v1", "ConfigMap", configMap));
    assertThat(json.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(json.path("kind").asText()).isEqualTo("ConfigMap");
    assertThat(json.at("/metadata/name").asText()).isEqualTo("x");
    assertThat(json.at("/metadata/labels/app").asText()).isEqualTo("demo");
    assertThat(json.at("/metadata/creationTimestamp").asText()).isEqualTo("1970-01-01T00:00:00Z");
    assertThat(json.at("/data/f").asText()).isEqualTo("hello\n");

    V1.Secret secret =
        V1.Secret.newBuilder()
            .setMetadata(Meta.ObjectMeta.newBuilder().setName("s"))
            .putData("token", ByteString.copyFrom("s3cr3t", StandardCharsets.UTF_8))
            .setType("Opaque")
            .build();
    JsonNode secretJson = ProtobufBodies.toJson(envelope("v1", "Secret", secret));
    assertThat(secretJson.at("/data/token").asText()).isEqualTo("czNjcjN0");
    assertThat(secretJson.path("type").asText()).isEqualTo("Opaque");
  }

  @Test
  void intOrStringIsANumberOrAString() {
    V1.ServicePort port =
        V1.ServicePort.newBuilder()
            .setPort(80)
            .setTargetPort(IntStr.IntOrString.newBuilder().setType(1).setStrVal("http"))
            .build();
    V1.Service service =
        V1.Service.newBuilder()
            .setMetadata(Meta.ObjectMeta.newBuilder().setName("svc"))
            .setSpec(V1.ServiceSpec.newBuilder().addPorts(port))
            .build();
    JsonNode json = ProtobufBodies.toJson(envelope("v1", "Service", service));
    assertThat(json.at("/spec/ports/0/port").asInt()).isEqualTo(80);
    assertThat(json.at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
  }

  @Test
  void aBodyWithoutTheEnvelopeOrOfAnUnknownKindIsRefused() {
    assertThatThrownBy(() -> ProtobufBodies.toJson("{}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k8s");
    assertThatThrownBy(() ->
            ProtobufBodies.toJson(
                envelope("threadline.dev/v1alpha1", "Thread", V1.ConfigMap.getDefaultInstance())))
        .isInstanceOf(ProtobufBodies.UnsupportedKindException.class);
    assertThat(ProtobufBodies.isProtobuf("application/vnd.kubernetes.protobuf")).isTrue();
    assertThat(ProtobufBodies.isProtobuf("application/json")).isFalse();
  }
}
