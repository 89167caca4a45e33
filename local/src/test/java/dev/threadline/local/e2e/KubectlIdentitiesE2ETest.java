package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl against the local mode under RBAC: each user's kubeconfig ({@code
 * kubeconfig-<user>} in the data folder) opens that user's namespace and nothing else, {@code
 * kubectl auth can-i} tells the truth, and the administrator's kubeconfig creates built-in kinds
 * (which kubectl sends as protobuf).
 */
class KubectlIdentitiesE2ETest {
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @TempDir static Path temp;

  record Result(int exitCode, String output) {}

  @BeforeAll
  static void needsKubectl() {
    Assumptions.assumeTrue(
        Path.of("/usr/bin/kubectl").toFile().canExecute(), "kubectl is not installed");
  }

  private static Result kubectl(Path kubeconfig, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "kubectl",
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                temp.resolve("cache-" + kubeconfig.getFileName()).toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), output.strip());
  }

  private static Path alice() {
    return fixture.local().userKubeconfig("alice");
  }

  @Test
  void eachUserHasAKubeconfigOfItsOwnBesideTheAdministrators() {
    Path file = alice();
    assertThat(file.getFileName().toString()).isEqualTo("kubeconfig-alice");
    assertThat(file.getParent()).isEqualTo(fixture.local().kubeconfig().getParent());
    assertThat(fixture.local().userKubeconfig("bob").getFileName().toString())
        .isEqualTo("kubeconfig-bob");
  }

  @Test
  void canITellsAliceSheMayInHerNamespaceAndNotInBobs() throws Exception {
    assertThat(kubectl(alice(), "auth", "can-i", "create", "threads", "-n", "alice"))
        .isEqualTo(new Result(0, "yes"));
    assertThat(kubectl(alice(), "auth", "can-i", "list", "secrets", "-n", "alice"))
        .isEqualTo(new Result(0, "yes"));
    Result inBobs = kubectl(alice(), "auth", "can-i", "get", "threads", "-n", "bob");
    assertThat(inBobs.exitCode()).isEqualTo(1);
    assertThat(inBobs.output()).isEqualTo("no");
    // Status is the operator's to write.
    assertThat(
            kubectl(
                    alice(),
                    "auth",
                    "can-i",
                    "update",
                    "threads",
                    "--subresource=status",
                    "-n",
                    "alice")
                .output())
        .isEqualTo("no");
    assertThat(
            kubectl(fixture.local().kubeconfig(), "auth", "can-i", "delete", "secrets", "-n", "bob")
                .output())
        .isEqualTo("yes");
  }

  @Test
  void canIListShowsTheRulesOfHerNamespace() throws Exception {
    Result list = kubectl(alice(), "auth", "can-i", "--list", "-n", "alice");
    assertThat(list.exitCode()).as(list.output()).isZero();
    assertThat(list.output())
        .contains("threads.threadline.dev")
        .contains("configmaps")
        .contains("selfsubjectaccessreviews.authorization.k8s.io");
    assertThat(kubectl(alice(), "auth", "can-i", "--list", "-n", "bob").output())
        .doesNotContain("threads.threadline.dev");
  }

  @Test
  void aliceIsRefusedBobsThreadsWithKubeApiserversMessage() throws Exception {
    assertThat(kubectl(alice(), "get", "threads", "-n", "alice").exitCode()).isZero();
    Result refused = kubectl(alice(), "get", "threads", "-n", "bob");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.output())
        .contains(
            "Error from server (Forbidden): threads.threadline.dev is forbidden: User \"alice\""
                + " cannot list resource \"threads\" in API group \"threadline.dev\" in the"
                + " namespace \"bob\"");
  }

  @Test
  void kubectlCreatesAConfigMapAndASecretSentAsProtobuf() throws Exception {
    Path small = Files.writeString(temp.resolve("small.txt"), "hello from a file\n");
    Path admin = fixture.local().kubeconfig();
    Result configMap =
        kubectl(admin, "create", "configmap", "x", "-n", "alice", "--from-file=f=" + small);
    assertThat(configMap).isEqualTo(new Result(0, "configmap/x created"));
    assertThat(kubectl(admin, "get", "configmap", "x", "-n", "alice", "-o", "jsonpath={.data.f}"))
        .isEqualTo(new Result(0, "hello from a file"));
    Result secret =
        kubectl(
            alice(),
            "create",
            "secret",
            "generic",
            "s",
            "-n",
            "alice",
            "--from-literal=token=s3cr3t");
    assertThat(secret).isEqualTo(new Result(0, "secret/s created"));
    assertThat(
            kubectl(alice(), "get", "secret", "s", "-n", "alice", "-o", "jsonpath={.data.token}"))
        .isEqualTo(new Result(0, "czNjcjN0"));
    Result elsewhere =
        kubectl(alice(), "create", "configmap", "y", "-n", "bob", "--from-literal=a=b");
    assertThat(elsewhere.exitCode()).isEqualTo(1);
    assertThat(elsewhere.output()).contains("is forbidden: User \"alice\" cannot create");
  }
}
