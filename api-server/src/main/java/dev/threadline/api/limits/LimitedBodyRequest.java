package dev.threadline.api.limits;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * A request whose body stops with a 413 once it passes the limit (for bodies without a
 * Content-Length, which the limit cannot be checked against up front), and with a 408 once its
 * deadline has passed.
 */
final class LimitedBodyRequest extends HttpServletRequestWrapper {
  private final BodyLimit limit;
  private final BodyDeadline deadline;
  private ServletInputStream body;

  LimitedBodyRequest(HttpServletRequest request, BodyLimit limit, BodyDeadline deadline) {
    super(request);
    this.limit = limit;
    this.deadline = deadline;
  }

  @Override
  public ServletInputStream getInputStream() throws IOException {
    if (body == null) {
      body = new LimitedStream(super.getInputStream(), limit, deadline);
    }
    return body;
  }

  @Override
  public BufferedReader getReader() throws IOException {
    String encoding = getCharacterEncoding();
    Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
    return new BufferedReader(new InputStreamReader(getInputStream(), charset));
  }

  private static final class LimitedStream extends ServletInputStream {
    private final ServletInputStream in;
    private final BodyLimit limit;
    private final BodyDeadline deadline;
    private long read;

    LimitedStream(ServletInputStream in, BodyLimit limit, BodyDeadline deadline) {
      this.in = in;
      this.limit = limit;
      this.deadline = deadline;
    }

    @Override
    public int read() throws IOException {
      deadline.check();
      int b = in.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      deadline.check();
      int n = in.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) {
      deadline.check();
      read += n;
      if (read > limit.bytes()) {
        throw limit.refusal();
      }
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
