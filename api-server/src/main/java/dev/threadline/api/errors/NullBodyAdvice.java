package dev.threadline.api.errors;

import java.lang.reflect.Type;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * A JSON body of {@code null} is a 400 naming the body, never read as "no body" (which some
 * endpoints accept, e.g. creating an empty thread). Spring only calls {@link #afterBodyRead} when a
 * body was sent, so a missing body still reaches the endpoint as null.
 */
@ControllerAdvice
class NullBodyAdvice extends RequestBodyAdviceAdapter {
  @Override
  public boolean supports(
      MethodParameter parameter,
      Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) {
    return true;
  }

  @Override
  public Object afterBodyRead(
      Object body,
      HttpInputMessage input,
      MethodParameter parameter,
      Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) {
    if (body == null) {
      throw ApiException.badRequest("Request body must be an object, not null");
    }
    return body;
  }
}
