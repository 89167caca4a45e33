package dev.threadline.local.kubeapi.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 in the middle of a burst of writes: a second JVM writes as fast as it can and prints the
 * name of each object once the store has acknowledged it; it is killed without warning; the store
 * opens again and holds every acknowledged object.
 */
class ObjectStoreCrashTest {
  private static final int ACKNOWLEDGED_BEFORE_KILL = 200;
  private static final String ACK = "acknowledged ";

  @TempDir Path folder;

  @Test
  void everyAcknowledgedWriteSurvivesKillMinusNine() throws Exception {
    Path file = folder.resolve("kubernetes.db");
    String java = ProcessHandle.current().info().command().orElse("java");
    Process writer =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                Writer.class.getName(),
                file.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    List<String> acknowledged = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (!line.startsWith(ACK)) {
          continue; // the child's log
        }
        acknowledged.add(line.substring(ACK.length()));
        if (acknowledged.size() == ACKNOWLEDGED_BEFORE_KILL) {
          writer.destroyForcibly(); // SIGKILL: no shutdown hook, no close
          break;
        }
      }
    }
    writer.waitFor();
    assertThat(acknowledged).hasSize(ACKNOWLEDGED_BEFORE_KILL);

    try (ObjectStore store = ObjectStore.open(file, StoreOptions.defaults())) {
      for (String name : acknowledged) {
        assertThat(store.get(ObjectStoreTest.key("a", name))).as(name).isPresent();
      }
      assertThat(store.revision()).isGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_KILL);
    }
  }

  /**
   * The writing JVM: four threads write until killed (so their writes share commits), each printing
   * a name after its write returned.
   */
  public static final class Writer {
    public static void main(String[] args) {
      ObjectStore store = ObjectStore.open(Path.of(args[0]), StoreOptions.defaults());
      for (int w = 0; w < 4; w++) {
        String prefix = "w" + w + "-";
        Thread.ofPlatform()
            .start(() -> {
              for (int i = 0; ; i++) {
                String name = prefix + i;
                store.create(
                    ObjectStoreTest.key("a", name), ObjectStoreTest.thread("a", name, Map.of()));
                synchronized (System.out) {
                  System.out.println(ACK + name);
                  System.out.flush();
                }
              }
            });
      }
    }
  }
}
