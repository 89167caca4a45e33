package dev.threadline.api.containers;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.common.SuccessResponse;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/v1/containers}: the caller's containers and their MCP servers. */
@RestController
@RequestMapping(path = "/api/v1/containers", produces = MediaType.APPLICATION_JSON_VALUE)
class ContainerController {
  private final ContainerService containers;

  ContainerController(ContainerService containers) {
    this.containers = containers;
  }

  /**
   * Every field is optional: an empty body (or none) makes an ephemeral container with defaults.
   */
  @PostMapping
  ResponseEntity<ContainerResponses.Single> create(
      Tenant tenant, @RequestBody(required = false) ContainerRequests.Create request) {
    ContainerView created = containers.create(tenant, request);
    return ResponseEntity.created(URI.create("/api/v1/containers/" + created.id()))
        .body(new ContainerResponses.Single(created));
  }

  /** Default limit 50, at most 100, oldest first. */
  @GetMapping
  ListEnvelope<ContainerView> list(Tenant tenant, PageRequest page) {
    return containers.list(tenant, page);
  }

  /** Beyond the contract's list: one container. */
  @GetMapping("/{id}")
  ContainerResponses.Single get(Tenant tenant, @PathVariable String id) {
    return new ContainerResponses.Single(containers.get(tenant, id));
  }

  @PatchMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
  ContainerResponses.Single update(
      Tenant tenant,
      @PathVariable String id,
      @RequestBody(required = false) ContainerRequests.Update request) {
    return new ContainerResponses.Single(containers.update(tenant, id, request));
  }

  @DeleteMapping("/{id}")
  SuccessResponse delete(Tenant tenant, @PathVariable String id) {
    containers.delete(tenant, id);
    return SuccessResponse.OK;
  }

  @PostMapping(path = "/{id}/mcp-servers", consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<ContainerResponses.Single> addMcpServer(
      Tenant tenant,
      @PathVariable String id,
      @RequestBody(required = false) ContainerRequests.McpServerInput request) {
    return ResponseEntity.status(HttpStatus.CREATED)
        .body(new ContainerResponses.Single(containers.addMcpServer(tenant, id, request)));
  }

  @DeleteMapping("/{id}/mcp-servers/{name}")
  ContainerResponses.Single removeMcpServer(
      Tenant tenant, @PathVariable String id, @PathVariable String name) {
    return new ContainerResponses.Single(containers.removeMcpServer(tenant, id, name));
  }
}
