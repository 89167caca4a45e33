package dev.threadline.api.openapi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The OpenAPI document of the whole REST surface, {@code openapi/openapi.yaml} on the class path
 * (committed in the repository), read once and held as YAML and as JSON.
 */
public final class OpenApiDocument {
  /** Where the document lives on the class path. */
  public static final String RESOURCE = "/openapi/openapi.yaml";

  private final byte[] yaml;
  private final byte[] json;

  private OpenApiDocument(byte[] yaml, byte[] json) {
    this.yaml = yaml;
    this.json = json;
  }

  /** Reads the document from the class path; fails at start-up if it is missing or not YAML. */
  public static OpenApiDocument load() {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the OpenAPI document " + RESOURCE + " is missing");
      }
      byte[] yaml = in.readAllBytes();
      byte[] json = new ObjectMapper().writeValueAsBytes(new YAMLMapper().readTree(yaml));
      return new OpenApiDocument(yaml, json);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the OpenAPI document " + RESOURCE, e);
    }
  }

  public byte[] yaml() {
    return yaml.clone();
  }

  public byte[] json() {
    return json.clone();
  }
}
