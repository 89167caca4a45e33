package dev.threadline.operator.sandbox;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ports leased on this host, across processes: where Pods share the host's network, a port handed
 * to a sandbox is free at that moment but only bound seconds later, when its program starts — and
 * another local mode on the same machine could hand it out meanwhile. A lease is a lock on {@code
 * <folder>/<port>.lock}, held while the sandbox may use the port; the operating system drops it
 * when the process ends, however it ends. A lock held by another process, or by another operator in
 * this one, is a port taken.
 */
final class HostPortLeases {
  private static final Logger LOG = LoggerFactory.getLogger(HostPortLeases.class);

  private final Path folder;
  private final Map<Integer, FileLock> held = new HashMap<>();

  HostPortLeases(Path folder) {
    this.folder = folder;
  }

  /** The machine-wide folder: every local mode of the machine leases there. */
  static HostPortLeases forThisHost() {
    return new HostPortLeases(Path.of(System.getProperty("java.io.tmpdir"), "threadline-ports"));
  }

  /** Whether the port is now leased to this process (false: someone else holds it). */
  synchronized boolean acquire(int port) {
    if (held.containsKey(port)) {
      return true;
    }
    FileChannel channel = null;
    try {
      Files.createDirectories(folder);
      channel =
          FileChannel.open(
              folder.resolve(port + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        return false;
      }
      held.put(port, lock);
      return true;
    } catch (OverlappingFileLockException inThisProcess) {
      close(channel);
      return false;
    } catch (IOException e) {
      close(channel);
      LOG.debug("port {} cannot be leased in {}: {}", port, folder, e.toString());
      return false;
    }
  }

  /** Whether this process holds the port's lease already. */
  synchronized boolean holds(int port) {
    return held.containsKey(port);
  }

  synchronized void release(int port) {
    FileLock lock = held.remove(port);
    if (lock != null) {
      close(lock.channel());
    }
  }

  private static void close(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close(); // releases its lock
      } catch (IOException e) {
        LOG.debug("lease file did not close: {}", e.toString());
      }
    }
  }
}
