package dev.threadline.runner.serve;

import com.sun.net.httpserver.Headers;
import dev.threadline.core.containers.SandboxProof;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool sandbox waits for a claim, and its first calls — the proof of its credential, then its
 * bind — come in the claimed run's time, to a JVM that has not run those paths yet (class loading,
 * linking, the first JSON and regex use: tens of ms). They are run once before the sandbox is
 * claimed: a bind of a throwaway binding in process, and one proof and one bind request over
 * loopback, which the sandbox refuses (they carry no credential it accepts) — nothing is bound.
 */
final class BindWarmUp {
  private static final Logger LOG = LoggerFactory.getLogger(BindWarmUp.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private BindWarmUp() {}

  static void run(int port) {
    String token = random();
    Headers headers = new Headers();
    headers.set("Authorization", "Bearer " + token);
    byte[] body =
        ("{\"token\":\"" + random() + "\",\"env\":{\"NAME\":\"value\"}}")
            .getBytes(StandardCharsets.UTF_8);
    SandboxBinding.unbound(AccessToken.of(token))
        .bind(headers, JsonBody.object(body, "the run's token and env"));
    try {
      send(port, "GET /health?" + SandboxProof.CHALLENGE + "=" + random(), null, new byte[0]);
      send(port, "POST /bind", random(), body);
    } catch (IOException e) {
      LOG.debug("the bind's warm-up over loopback failed: {}", e.toString());
    }
  }

  private static void send(int port, String requestLine, String bearer, byte[] body)
      throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(5_000);
      String head =
          requestLine
              + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
              + (bearer == null ? "" : "Authorization: Bearer " + bearer + "\r\n")
              + "Content-Type: application/json\r\nContent-Length: "
              + body.length
              + "\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      try (InputStream in = socket.getInputStream()) {
        in.readAllBytes();
      }
    }
  }

  private static String random() {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
