package dev.threadline.runner.serve;

import dev.threadline.core.containers.SandboxExit;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code runner serve}: the sandbox. Executes what the worker (and, for containers, the api-server)
 * asks through the {@link FileApiServer} until the Pod is stopped. Prints nothing on stdout (no
 * event protocol here); logs on stderr.
 */
public final class ServeCommand {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  private final PrintStream err;

  public ServeCommand(PrintStream err) {
    this.err = err;
  }

  public int execute(String[] args) {
    ServeOptions options;
    try {
      options = ServeOptions.parse(List.of(args));
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(ServeOptions.USAGE);
      return 2;
    }
    FileApiServer server;
    try {
      server = FileApiServer.start(options);
    } catch (BindException taken) {
      // Its own code: the operator makes the sandbox again on another port.
      err.println(
          "cannot serve the workspace on "
              + options.address()
              + ":"
              + options.port()
              + ": the port stays taken by another program ("
              + taken.getMessage()
              + ")");
      return SandboxExit.PORT_TAKEN;
    } catch (IOException | RuntimeException e) {
      err.println(
          "cannot serve the workspace on "
              + options.address()
              + ":"
              + options.port()
              + ": "
              + e.getMessage());
      return 1;
    }
    LOG.info(
        "Serving the sandbox API for workspace {} on {}:{} (uploads up to {} bytes)",
        options.workspace(),
        options.address(),
        server.port(),
        options.maxUploadBytes());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("Stopping the sandbox API");
                  server.close();
                  stopped.countDown();
                },
                "serve-shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.close();
    }
    return 0;
  }
}
