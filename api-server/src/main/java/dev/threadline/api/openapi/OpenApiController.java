package dev.threadline.api.openapi;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves the OpenAPI document without a key (see {@code AuthenticationFilter}), so that anyone can
 * generate a client: {@code /openapi.yaml} as committed, {@code /openapi.json} the same document.
 */
@RestController
class OpenApiController {
  static final String YAML_PATH = "/openapi.yaml";
  static final String JSON_PATH = "/openapi.json";
  private static final String YAML = "application/yaml";

  private final OpenApiDocument document = OpenApiDocument.load();

  @GetMapping(path = YAML_PATH, produces = YAML)
  ResponseEntity<byte[]> yaml() {
    return ResponseEntity.ok()
        .contentType(MediaType.parseMediaType(YAML))
        .cacheControl(CacheControl.noCache())
        .body(document.yaml());
  }

  @GetMapping(path = JSON_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<byte[]> json() {
    return ResponseEntity.ok()
        .contentType(MediaType.APPLICATION_JSON)
        .cacheControl(CacheControl.noCache())
        .body(document.json());
  }
}
