package dev.threadline.local.kubelet.sandbox;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The inside half of a port bridge: runs in a sandbox without network, starts the container's
 * program, and relays each connection made to {@code <socket folder>/<port>.sock} to the program's
 * port on the sandbox's own loopback. The kubelet's {@link HostPortBridge} is the outside half.
 *
 * <p>Usage: {@code PortBridge <socket folder> <port>... -- <program> <args>...}; exits with the
 * program's exit code.
 */
public final class PortBridge {
  private PortBridge() {}

  public static void main(String[] args) throws Exception {
    int separator = List.of(args).indexOf("--");
    if (separator < 1 || separator == args.length - 1) {
      System.err.println("usage: PortBridge <socket folder> <port>... -- <program> <args>...");
      System.exit(2);
    }
    Path folder = Path.of(args[0]);
    List<String> command = List.of(args).subList(separator + 1, args.length);
    Process program = new ProcessBuilder(command).inheritIO().start();
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> program.destroy(), "bridge-stop-program"));
    for (int i = 1; i < separator; i++) {
      int port = Integer.parseInt(args[i]);
      ServerSocketChannel server = listen(folder.resolve(socketName(port)));
      Thread.ofPlatform().daemon().name("bridge-" + port).start(() -> accept(server, port));
    }
    System.exit(program.waitFor());
  }

  /** The socket of {@code port} in the bridge folder. */
  static String socketName(int port) {
    return port + ".sock";
  }

  private static ServerSocketChannel listen(Path socket) throws IOException {
    Files.deleteIfExists(socket);
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    return server;
  }

  private static void accept(ServerSocketChannel server, int port) {
    while (server.isOpen()) {
      try {
        SocketChannel outside = server.accept();
        Thread.ofVirtual()
            .name("bridge-" + port + "-connection")
            .start(() -> relayToPort(outside, port));
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void relayToPort(SocketChannel outside, int port) {
    try {
      SocketChannel inside = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
      Relay.between(outside, inside);
    } catch (IOException notListening) {
      try {
        outside.close(); // the program is not listening (yet): the caller sees a closed connection
      } catch (IOException ignored) {
        // already gone
      }
    }
  }
}
