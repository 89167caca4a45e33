package dev.threadline.trigger;

import dev.threadline.core.image.Dockerfile;
import dev.threadline.core.image.ImageInputs;
import org.junit.jupiter.api.Test;

/** After {@code package}: the Dockerfile's inputs are in target/image and it starts the trigger. */
class TriggerDockerfileIT {
  private final Dockerfile dockerfile = Dockerfile.read(ImageInputs.module().resolve("Dockerfile"));

  @Test
  void copiesOnlyFromTheImageLayout() {
    ImageInputs.assertCopiesOnlyFromTheLayout(dockerfile);
  }

  @Test
  void startsTheTriggerFromTheCopiedJars() {
    ImageInputs.assertRunsMainFromTheLayoutLib(dockerfile, TriggerMain.class);
  }
}
