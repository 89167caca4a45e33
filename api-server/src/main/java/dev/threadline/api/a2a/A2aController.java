package dev.threadline.api.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ExceptionMapper;
import dev.threadline.api.stream.StreamSettings;
import dev.threadline.crds.run.Run;
import io.a2a.spec.CancelTaskRequest;
import io.a2a.spec.CancelTaskResponse;
import io.a2a.spec.GetTaskRequest;
import io.a2a.spec.GetTaskResponse;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.JSONRPCErrorResponse;
import io.a2a.spec.JSONRPCRequest;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.PushNotificationNotSupportedError;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.TaskResubscriptionRequest;
import io.a2a.spec.UnsupportedOperationError;
import io.a2a.util.Utils;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.Callable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * A2A 0.3 over JSON-RPC: each agent's card and endpoint, and those of threads without an agent.
 * Bodies are read and written with the A2A SDK's own types and mapper (Jackson 2), never through
 * Spring's. Waiting answers ({@code message/send} until the task ends, {@code tasks/cancel}) and
 * streams run off the request thread. Every failure inside a request is a JSON-RPC error; a missing
 * or refused key, a missing scope, the rate limit and an unknown agent are refused at the HTTP
 * level first, as for REST.
 */
@RestController
class A2aController {
  private final A2aService a2a;
  private final TaskStream streams;
  private final StreamSettings settings;
  private final ExceptionMapper mapper;

  A2aController(A2aService a2a, StreamSettings settings, ExceptionMapper mapper) {
    this.a2a = a2a;
    this.streams = new TaskStream(a2a);
    this.settings = settings;
    this.mapper = mapper;
  }

  /** The card of threads without an agent: public, it tells nothing about any user. */
  @GetMapping(path = {A2aPaths.CARD, A2aPaths.BASE + A2aPaths.CARD})
  ResponseEntity<byte[]> serverCard() throws JsonProcessingException {
    return json(200, AgentCards.server(url(A2aPaths.BASE)));
  }

  /** An agent's card: its instructions are the user's, so it takes the user's key. */
  @GetMapping(A2aPaths.AGENTS + "/{agentId}" + A2aPaths.CARD)
  ResponseEntity<byte[]> agentCard(Tenant tenant, @PathVariable String agentId)
      throws JsonProcessingException {
    return json(200, a2a.card(tenant, agentId, url(A2aPaths.endpoint(agentId))));
  }

  @PostMapping(A2aPaths.BASE)
  Object call(
      Tenant tenant,
      @RequestBody(required = false) byte[] body,
      HttpServletRequest request,
      HttpServletResponse response)
      throws JsonProcessingException {
    return handle(tenant, null, body, request, response);
  }

  @PostMapping(A2aPaths.AGENTS + "/{agentId}")
  Object callAgent(
      Tenant tenant,
      @PathVariable String agentId,
      @RequestBody(required = false) byte[] body,
      HttpServletRequest request,
      HttpServletResponse response)
      throws JsonProcessingException {
    a2a.requireEndpoint(tenant, agentId);
    return handle(tenant, agentId, body, request, response);
  }

  private Object handle(
      Tenant tenant,
      String agentId,
      byte[] body,
      HttpServletRequest http,
      HttpServletResponse response)
      throws JsonProcessingException {
    JsonRpcRequests.Parsed parsed = JsonRpcRequests.parse(body == null ? new byte[0] : body);
    if (parsed instanceof JsonRpcRequests.Invalid invalid) {
      return errorJson(200, invalid.id(), invalid.error());
    }
    JSONRPCRequest<?> request = ((JsonRpcRequests.Valid) parsed).request();
    Object id = request.getId();
    String described = "A2A " + request.getMethod() + " " + http.getRequestURI();
    try {
      return switch (request) {
        case SendMessageRequest send ->
            sendMessage(tenant, agentId, id, send.getParams(), described);
        case SendStreamingMessageRequest send -> {
          Run run = a2a.send(tenant, agentId, send.getParams());
          yield streams.open(response, tenant, id, run, a2a.view(run, null));
        }
        case GetTaskRequest get -> {
          int historyLength = get.getParams().historyLength();
          yield json(
              200,
              new GetTaskResponse(
                  id,
                  a2a.view(
                      a2a.task(tenant, agentId, get.getParams().id()),
                      historyLength > 0 ? historyLength : null)));
        }
        case CancelTaskRequest cancel ->
            waiting(
                id,
                described,
                () ->
                    new CancelTaskResponse(
                        id, a2a.cancel(tenant, agentId, cancel.getParams().id())));
        case TaskResubscriptionRequest resubscribe -> {
          Run run = a2a.task(tenant, agentId, resubscribe.getParams().id());
          yield streams.open(response, tenant, id, run, a2a.view(run, null));
        }
        default ->
            request.getMethod().startsWith("tasks/pushNotificationConfig/")
                ? errorJson(200, id, new PushNotificationNotSupportedError())
                : errorJson(200, id, new UnsupportedOperationError());
      };
    } catch (RuntimeException | JSONRPCError failure) {
      return error(id, failure, described);
    }
  }

  /**
   * {@code message/send}: the task once it ends (or as it is after the stream's wait); right away,
   * submitted, when the client asks not to block.
   */
  private Object sendMessage(
      Tenant tenant, String agentId, Object id, MessageSendParams params, String described)
      throws JsonProcessingException {
    Run run = a2a.send(tenant, agentId, params);
    MessageSendConfiguration configuration = params.configuration();
    Integer historyLength = configuration == null ? null : configuration.historyLength();
    if (configuration != null && Boolean.FALSE.equals(configuration.blocking())) {
      return json(200, new SendMessageResponse(id, a2a.view(run, historyLength)));
    }
    return waiting(
        id,
        described,
        () ->
            new SendMessageResponse(
                id, a2a.view(a2a.awaitEnd(tenant, run, settings.maxWait()), historyLength)));
  }

  /** An answer that waits for a run, produced off the request thread. */
  private Callable<ResponseEntity<byte[]>> waiting(
      Object id, String described, Callable<Object> answer) {
    return () -> {
      try {
        return json(200, answer.call());
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return error(id, interrupted, described);
      } catch (Exception | JSONRPCError failure) {
        return error(id, failure, described);
      }
    };
  }

  private ResponseEntity<byte[]> error(Object id, Throwable failure, String described)
      throws JsonProcessingException {
    A2aErrors.Failure mapped = A2aErrors.of(failure, mapper, described);
    return errorJson(mapped.status(), id, mapped.error());
  }

  /**
   * An error response; its {@code id} is null (JSON-RPC 2.0 requires it present) when the request's
   * could not be read, which the SDK's mapper would leave out.
   */
  private static ResponseEntity<byte[]> errorJson(int status, Object id, JSONRPCError error)
      throws JsonProcessingException {
    ObjectNode body = Utils.OBJECT_MAPPER.valueToTree(new JSONRPCErrorResponse(id, error));
    if (!body.has("id")) {
      body.putNull("id");
    }
    return json(status, body);
  }

  private static ResponseEntity<byte[]> json(int status, Object body)
      throws JsonProcessingException {
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .body(Utils.OBJECT_MAPPER.writeValueAsBytes(body));
  }

  private static String url(String path) {
    return ServletUriComponentsBuilder.fromCurrentContextPath().path(path).toUriString();
  }
}
