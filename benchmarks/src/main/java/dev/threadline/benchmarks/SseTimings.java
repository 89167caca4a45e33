package dev.threadline.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One streamed POST, timed from the moment the request is sent: when the first byte arrives and
 * when each event type is first seen.
 */
final class SseTimings {
  private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern TOOL_ITEM = Pattern.compile("\"id\"\\s*:\\s*\"(tool_[^\"]+)\"");
  private static final Pattern THREAD_ID = Pattern.compile("\"id\"\\s*:\\s*\"(thread_[^\"]+)\"");

  final double firstByteMillis;
  final Map<String, Double> firstEventMillis;

  /** When each tool_call item arrived (wall clock), by item id. */
  final Map<String, Instant> toolItemsReceived;

  final String threadId;

  private SseTimings(
      double firstByteMillis,
      Map<String, Double> firstEventMillis,
      Map<String, Instant> toolItemsReceived,
      String threadId) {
    this.firstByteMillis = firstByteMillis;
    this.firstEventMillis = firstEventMillis;
    this.toolItemsReceived = toolItemsReceived;
    this.threadId = threadId;
  }

  /** The POST was answered with a status other than 200 (its body in the message). */
  static final class Refused extends IOException {
    final int status;

    Refused(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  static SseTimings post(HttpClient http, String url, String apiKey, String json)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer " + apiKey)
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build();
    long start = System.nanoTime();
    HttpResponse<InputStream> response =
        http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      throw new Refused(
          response.statusCode(),
          "POST "
              + url
              + " answered "
              + response.statusCode()
              + ": "
              + new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
    }
    Map<String, Double> events = new LinkedHashMap<>();
    Map<String, Instant> toolItems = new LinkedHashMap<>();
    String threadId = null;
    try (InputStream body = response.body()) {
      int first = body.read();
      double firstByte = (System.nanoTime() - start) / 1e6;
      if (first < 0) {
        throw new IOException("empty stream");
      }
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
      String line = (char) first + lines.readLine();
      while (line != null) {
        if (line.startsWith("data:")) {
          Matcher type = TYPE.matcher(line);
          if (type.find()) {
            events.putIfAbsent(type.group(1), (System.nanoTime() - start) / 1e6);
            Matcher tool = TOOL_ITEM.matcher(line);
            if (tool.find()) {
              toolItems.put(tool.group(1), Instant.now());
            }
            Matcher thread = THREAD_ID.matcher(line);
            if (threadId == null && type.group(1).equals("thread.created") && thread.find()) {
              threadId = thread.group(1);
            }
            if (type.group(1).equals("stream.completed")) {
              break;
            }
          }
        }
        line = lines.readLine();
      }
      return new SseTimings(firstByte, events, toolItems, threadId);
    }
  }
}
