package dev.threadline.api.agents;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.common.SuccessResponse;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import java.net.URI;
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

/** {@code /v1/agents}: CRUD over the caller's Agent resources. */
@RestController
@RequestMapping(path = "/v1/agents", produces = MediaType.APPLICATION_JSON_VALUE)
class AgentController {
  private final AgentService agents;

  AgentController(AgentService agents) {
    this.agents = agents;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<AgentResponse> create(
      Tenant tenant, @RequestBody(required = false) AgentRequests.Create request) {
    AgentView created = agents.create(tenant, request);
    return ResponseEntity.created(URI.create("/v1/agents/" + created.id()))
        .body(new AgentResponse(created));
  }

  @GetMapping
  ListEnvelope<AgentView> list(Tenant tenant, PageRequest page) {
    return agents.list(tenant, page);
  }

  @GetMapping("/{agentId}")
  AgentResponse get(Tenant tenant, @PathVariable String agentId) {
    return new AgentResponse(agents.get(tenant, agentId));
  }

  @PatchMapping(path = "/{agentId}", consumes = MediaType.APPLICATION_JSON_VALUE)
  AgentResponse update(
      Tenant tenant,
      @PathVariable String agentId,
      @RequestBody(required = false) AgentRequests.Update request) {
    return new AgentResponse(agents.update(tenant, agentId, request));
  }

  @DeleteMapping("/{agentId}")
  SuccessResponse delete(Tenant tenant, @PathVariable String agentId) {
    agents.delete(tenant, agentId);
    return SuccessResponse.OK;
  }
}
