package dev.threadline.local.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;

/** Pods for tests: one busybox container running a shell script. */
final class TestPods {
  static final String NAMESPACE = "user-1";

  private TestPods() {}

  static PodBuilder shell(String name, String script) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NAMESPACE)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("main")
        .withImage("busybox:1.36")
        .withCommand(List.of("sh", "-c", script))
        .endContainer()
        .endSpec();
  }

  static Pod build(String name, String script) {
    return shell(name, script).build();
  }

  static LocalImages busybox() {
    return new LocalImages()
        .register(
            "busybox (the host shell)", LocalImages.repository("busybox"), LocalPrograms.shell());
  }
}
