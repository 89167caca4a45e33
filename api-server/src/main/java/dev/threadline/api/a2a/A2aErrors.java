package dev.threadline.api.a2a;

import dev.threadline.api.errors.ErrorBody;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.api.errors.ExceptionMapper;
import dev.threadline.api.errors.MappedError;
import io.a2a.spec.InternalError;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.InvalidRequestError;
import io.a2a.spec.JSONRPCError;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A failure as a JSON-RPC error. The A2A errors the handlers raise pass as they are; the REST
 * services' refusals keep their meaning: a bad field is -32602, a busy context -32011, too many
 * requests -32012, an exhausted allowance -32010 with HTTP status 402 and the {@code usage} as REST
 * sends it; anything unexpected is -32603 with only a reference (the ExceptionMapper logs it).
 */
final class A2aErrors {
  static final int USAGE_EXHAUSTED = -32010;
  static final int CONTEXT_BUSY = -32011;
  static final int RATE_LIMITED = -32012;

  private A2aErrors() {}

  /** The JSON-RPC error and the HTTP status of its response (200 but for the 402). */
  record Failure(int status, JSONRPCError error) {}

  static Failure of(Throwable failure, ExceptionMapper mapper, String request) {
    if (failure instanceof JSONRPCError error) {
      return new Failure(200, error);
    }
    MappedError mapped = mapper.map(failure, request);
    ErrorBody body = mapped.body();
    return switch (mapped.kind()) {
      case PAYMENT_REQUIRED ->
          new Failure(
              ErrorKind.PAYMENT_REQUIRED.status(),
              new JSONRPCError(USAGE_EXHAUSTED, body.message(), usageData(body)));
      case BAD_REQUEST, PAYLOAD_TOO_LARGE, UNPROCESSABLE_ENTITY, NOT_FOUND ->
          new Failure(200, new InvalidParamsError(body.message()));
      case CONFLICT -> new Failure(200, new JSONRPCError(CONTEXT_BUSY, body.message(), null));
      case TOO_MANY_REQUESTS ->
          new Failure(200, new JSONRPCError(RATE_LIMITED, body.message(), null));
      case INTERNAL_SERVER_ERROR, SERVICE_UNAVAILABLE ->
          new Failure(200, new InternalError(body.message()));
      default -> new Failure(200, new InvalidRequestError(body.message()));
    };
  }

  private static Map<String, Object> usageData(ErrorBody body) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("error", body.error());
    if (body.usage() != null) {
      // In the order of REST's 402 body.
      Map<String, Object> usage = new LinkedHashMap<>();
      usage.put("tier", body.usage().tier());
      usage.put("allowance", body.usage().allowance());
      usage.put("used", body.usage().used());
      data.put("usage", usage);
    }
    return data;
  }
}
