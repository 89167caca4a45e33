package dev.threadline.api.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.a2a.spec.IdJsonMappingException;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.InvalidParamsJsonMappingException;
import io.a2a.spec.InvalidRequestError;
import io.a2a.spec.JSONParseError;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.JSONRPCRequest;
import io.a2a.spec.MethodNotFoundError;
import io.a2a.spec.MethodNotFoundJsonMappingException;
import io.a2a.spec.NonStreamingJSONRPCRequest;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.StreamingJSONRPCRequest;
import io.a2a.spec.TaskResubscriptionRequest;
import io.a2a.util.Utils;
import java.io.IOException;

/**
 * Reads a JSON-RPC request body with the A2A SDK's own request types, or says which JSON-RPC error
 * it is: -32700 not JSON, -32600 not a request (no {@code jsonrpc: "2.0"}, no method, a batch),
 * -32601 an unknown method, -32602 params that do not fit the method.
 */
final class JsonRpcRequests {
  /** A message's detail in an error is bounded (it may quote the input). */
  static final int DETAIL_LIMIT = 300;

  private JsonRpcRequests() {}

  /** What a body is. */
  sealed interface Parsed {}

  /** A request of a known method with params of the right shape. */
  record Valid(JSONRPCRequest<?> request) implements Parsed {
    boolean streaming() {
      return request instanceof StreamingJSONRPCRequest<?>;
    }
  }

  /** Not a valid request: the error to answer with, under the request's id when it has one. */
  record Invalid(Object id, JSONRPCError error) implements Parsed {}

  static Parsed parse(byte[] body) {
    JsonNode node;
    try {
      node = Utils.OBJECT_MAPPER.readTree(body);
    } catch (IOException notJson) {
      return new Invalid(null, new JSONParseError("The body is not valid JSON"));
    }
    if (node == null || node.isMissingNode()) {
      return new Invalid(
          null, new JSONParseError("The body is empty: a JSON-RPC request is needed"));
    }
    if (!node.isObject()) {
      return new Invalid(
          null, new InvalidRequestError("The body must be one JSON-RPC request object"));
    }
    Object id = idOf(node);
    String method = node.path("method").asText("");
    Class<?> type =
        SendStreamingMessageRequest.METHOD.equals(method)
                || TaskResubscriptionRequest.METHOD.equals(method)
            ? StreamingJSONRPCRequest.class
            : NonStreamingJSONRPCRequest.class;
    try {
      return new Valid((JSONRPCRequest<?>) Utils.OBJECT_MAPPER.treeToValue(node, type));
    } catch (MethodNotFoundJsonMappingException unknown) {
      return new Invalid(
          id,
          new MethodNotFoundError(
              MethodNotFoundError.DEFAULT_CODE, "Method not found: " + bounded(method), null));
    } catch (InvalidParamsJsonMappingException params) {
      return new Invalid(id, new InvalidParamsError(paramsProblem(method, params)));
    } catch (IdJsonMappingException request) {
      return new Invalid(id, new InvalidRequestError(bounded(request.getOriginalMessage())));
    } catch (JsonProcessingException other) {
      return new Invalid(id, new InvalidRequestError("Not a valid JSON-RPC request"));
    }
  }

  /** The request's id when it is one a response may carry (a string or an integer). */
  static Object idOf(JsonNode node) {
    JsonNode id = node.get("id");
    if (id == null) {
      return null;
    }
    if (id.isTextual()) {
      return id.textValue();
    }
    return id.canConvertToInt() ? id.intValue() : null;
  }

  /**
   * What is wrong with the params, without the SDK's class names: the reason its constructors gave
   * (e.g. a missing field), else a general one.
   */
  private static String paramsProblem(String method, Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof IllegalArgumentException argument && argument.getMessage() != null) {
        return "params: " + bounded(argument.getMessage());
      }
    }
    return "params do not fit " + bounded(method) + " (see the A2A 0.3 schema)";
  }

  private static String bounded(String text) {
    if (text == null) {
      return "";
    }
    return text.length() <= DETAIL_LIMIT ? text : text.substring(0, DETAIL_LIMIT) + "…";
  }
}
