package dev.threadline.local.kubeapi;

import java.nio.charset.StandardCharsets;

/** A complete, non-streaming answer of the embedded API. */
record ApiResponse(int code, String contentType, byte[] body) {
  static final String JSON = "application/json";

  static ApiResponse json(int code, Object document) {
    return new ApiResponse(code, JSON, Json.bytes(document));
  }

  static ApiResponse json(int code, String text) {
    return new ApiResponse(
        code, JSON, text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8));
  }

  String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
