package dev.threadline.local.kubelet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** A test program for a sandboxed Pod: answers each connection with what it sends, once. */
public final class EchoServer {
  private EchoServer() {}

  public static void main(String[] args) throws IOException {
    try (ServerSocket server =
        new ServerSocket(Integer.parseInt(args[0]), 8, InetAddress.getLoopbackAddress())) {
      System.out.println("listening");
      try (Socket client = server.accept();
          InputStream in = client.getInputStream();
          OutputStream out = client.getOutputStream()) {
        out.write(("echo:" + new String(in.readNBytes(5))).getBytes());
      }
    }
  }
}
