package dev.threadline.crds.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ThreadSpec;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The serialization every Threadline client is built with. */
class ThreadlineClientsTest {
  private final ObjectMapper mapper = new ObjectMapper();
  private final KubernetesSerialization serialization =
      ThreadlineClients.serialization(mapper, new UnreadableResourceEvents("test"));

  @Test
  void beanPropertiesAreSetByBlackbirdNotByReflectionInsideFabric8sWrappers() throws Exception {
    for (Class<?> type :
        List.of(RunStatus.class, RunSpec.class, ThreadSpec.class, ObjectMeta.class)) {
      List<List<String>> chains = propertyChains(type);
      assertThat(chains).as(type.getSimpleName()).isNotEmpty();
      // fabric8's wrapper outside (unknown-field handling), Blackbird's setter inside it.
      assertThat(chains)
          .as(type.getSimpleName() + " properties")
          .allSatisfy(chain -> assertThat(chain).anyMatch(name -> name.contains(".blackbird.")));
    }
  }

  @Test
  void aRunReadsBackAsItWasWritten() {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName("run-thread-abc-1")
            .withNamespace("user-a")
            .withLabels(Map.of("threadline.dev/thread", "thread-abc"))
            .build());
    RunSpec spec = new RunSpec();
    run.setSpec(spec);
    RunStatus status = new RunStatus();
    status.setPhase("completed");
    status.setResponse("Hello!");
    status.setDurationMs(12L);
    status.setActions(List.of("answered"));
    status.setUsageRecorded(true);
    run.setStatus(status);

    String json = serialization.asJson(run);
    Run read = serialization.unmarshal(json, Run.class);

    assertThat(serialization.asJson(read)).isEqualTo(json);
    assertThat(read.getStatus().getDurationMs()).isEqualTo(12L);
    assertThat(read.getMetadata().getLabels()).containsEntry("threadline.dev/thread", "thread-abc");
  }

  /**
   * Each property's classes, from the outermost wrapper to the innermost delegate; not for
   * JsonNode-typed properties, whose own deserializer Blackbird leaves as it is.
   */
  private List<List<String>> propertyChains(Class<?> type) throws Exception {
    DefaultDeserializationContext context =
        ((DefaultDeserializationContext) mapper.getDeserializationContext())
            .createDummyInstance(mapper.getDeserializationConfig());
    JsonDeserializer<Object> deserializer =
        context.findRootValueDeserializer(mapper.constructType(type));
    assertThat(deserializer).isInstanceOf(BeanDeserializerBase.class);
    List<List<String>> chains = new ArrayList<>();
    ((BeanDeserializerBase) deserializer)
        .properties()
        .forEachRemaining(property -> {
          if (property.getType().isTypeOrSubTypeOf(JsonNode.class)) {
            return;
          }
          List<String> chain = new ArrayList<>();
          SettableBeanProperty next = property;
          chain.add(next.getClass().getName());
          while (next instanceof SettableBeanProperty.Delegating delegating) {
            next = delegating.getDelegate();
            chain.add(next.getClass().getName());
          }
          chains.add(chain);
        });
    return chains;
  }
}
