package dev.threadline.local.kubelet.sandbox;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outside half of a port bridge: listens on the host's loopback at a sandbox's port and relays
 * each connection to the {@link PortBridge} inside the sandbox through a Unix socket in the Pod's
 * folder — the only way in to a sandbox without network. Connections made before the sandbox
 * listens are closed at once, as a refused connection would be.
 */
public final class HostPortBridge implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HostPortBridge.class);

  private final Path folder;
  private final List<ServerSocketChannel> listeners = new ArrayList<>();

  private HostPortBridge(Path folder) {
    this.folder = folder;
  }

  /**
   * Listens on 127.0.0.1 at each port, relaying to {@code <folder>/<port>.sock}; the folder is the
   * bridge's and goes with it.
   */
  public static HostPortBridge open(Path folder, List<Integer> ports) throws IOException {
    HostPortBridge bridge = new HostPortBridge(folder);
    try {
      for (int port : ports) {
        ServerSocketChannel listener =
            ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", port));
        bridge.listeners.add(listener);
        Path socket = folder.resolve(PortBridge.socketName(port));
        Thread.ofVirtual().name("host-bridge-" + port).start(() -> bridge.accept(listener, socket));
      }
    } catch (IOException e) {
      bridge.close();
      throw e;
    }
    return bridge;
  }

  private void accept(ServerSocketChannel listener, Path socket) {
    while (listener.isOpen()) {
      SocketChannel outside;
      try {
        outside = listener.accept();
      } catch (IOException closed) {
        return;
      }
      Thread.ofVirtual().name("host-bridge-connection").start(() -> relay(outside, socket));
    }
  }

  private static void relay(SocketChannel outside, Path socket) {
    try {
      SocketChannel inside = SocketChannel.open(StandardProtocolFamily.UNIX);
      try {
        inside.connect(UnixDomainSocketAddress.of(socket));
      } catch (IOException notYet) {
        inside.close();
        outside.close();
        return;
      }
      Relay.between(outside, inside);
    } catch (IOException e) {
      LOG.debug("Bridge connection to {} failed: {}", socket, e.toString());
    }
  }

  @Override
  public void close() {
    for (ServerSocketChannel listener : listeners) {
      try {
        listener.close();
      } catch (IOException e) {
        LOG.debug("Bridge listener did not close: {}", e.toString());
      }
    }
    try (var sockets = Files.list(folder)) {
      for (Path socket : sockets.toList()) {
        Files.deleteIfExists(socket);
      }
      Files.deleteIfExists(folder);
    } catch (IOException e) {
      LOG.debug("Bridge folder {} stays: {}", folder, e.toString());
    }
  }
}
