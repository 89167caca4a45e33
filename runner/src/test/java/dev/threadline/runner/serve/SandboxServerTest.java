package dev.threadline.runner.serve;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test against a fresh {@code serve} on loopback per test method ({@link SandboxHarness}). */
abstract class SandboxServerTest {
  @TempDir Path temp;
  SandboxHarness sandbox;

  /** The upload limit of the server under test. */
  long maxUploadBytes() {
    return 1024 * 1024;
  }

  @BeforeEach
  void startSandbox() throws Exception {
    sandbox = new SandboxHarness(temp, maxUploadBytes());
  }

  @AfterEach
  void stopSandbox() {
    sandbox.close();
  }
}
