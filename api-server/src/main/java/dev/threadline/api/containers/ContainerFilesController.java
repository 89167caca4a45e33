package dev.threadline.api.containers;

import dev.threadline.api.auth.Tenant;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * A container's workspace ({@code /files}), log and health. Uploads are the raw request body (any
 * content type; at most 10 MiB); downloads stream the file's bytes as an attachment.
 */
@RestController
@RequestMapping("/api/v1/containers/{id}")
class ContainerFilesController {
  private final ContainerFiles files;

  ContainerFilesController(ContainerFiles files) {
    this.files = files;
  }

  @GetMapping(path = "/files", produces = MediaType.APPLICATION_JSON_VALUE)
  JsonNode list(
      Tenant tenant, @PathVariable String id, @RequestParam(required = false) String path) {
    return files.list(tenant, id, path);
  }

  @GetMapping("/files/download")
  void download(
      Tenant tenant,
      @PathVariable String id,
      @RequestParam(required = false) String path,
      HttpServletResponse response)
      throws IOException {
    HttpResponse<InputStream> file = files.download(tenant, id, path);
    String name = file.headers().firstValue("X-Threadline-Path").orElse(path);
    response.setStatus(200);
    response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
    file.headers()
        .firstValueAsLong(HttpHeaders.CONTENT_LENGTH)
        .ifPresent(response::setContentLengthLong);
    response.setHeader(
        HttpHeaders.CONTENT_DISPOSITION,
        ContentDisposition.attachment()
            .filename(
                name.substring(name.lastIndexOf('/') + 1), java.nio.charset.StandardCharsets.UTF_8)
            .build()
            .toString());
    try (InputStream in = file.body();
        OutputStream out = response.getOutputStream()) {
      in.transferTo(out);
    }
  }

  @PutMapping(path = "/files", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JsonNode> upload(
      Tenant tenant,
      @PathVariable String id,
      @RequestParam(required = false) String path,
      HttpServletRequest request)
      throws IOException {
    JsonNode written =
        files.upload(tenant, id, path, request.getContentLengthLong(), request.getInputStream());
    return ResponseEntity.status(written.path("created").asBoolean() ? 201 : 200).body(written);
  }

  @DeleteMapping(path = "/files", produces = MediaType.APPLICATION_JSON_VALUE)
  JsonNode delete(
      Tenant tenant, @PathVariable String id, @RequestParam(required = false) String path) {
    return files.delete(tenant, id, path);
  }

  /** {@code lines}: how many of the last lines, default 100, 1-10000. */
  @GetMapping(path = "/logs", produces = MediaType.APPLICATION_JSON_VALUE)
  ContainerResponses.Logs logs(
      Tenant tenant, @PathVariable String id, @RequestParam(required = false) String lines) {
    return files.logs(tenant, id, lines);
  }

  @GetMapping(path = "/health", produces = MediaType.APPLICATION_JSON_VALUE)
  ContainerResponses.Health health(Tenant tenant, @PathVariable String id) {
    return files.health(tenant, id);
  }
}
