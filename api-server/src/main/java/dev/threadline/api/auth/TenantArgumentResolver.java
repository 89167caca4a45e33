package dev.threadline.api.auth;

import dev.threadline.api.errors.ApiException;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Hands controllers the authenticated {@link Tenant} that {@link AuthenticationFilter} found. */
public final class TenantArgumentResolver implements HandlerMethodArgumentResolver {
  @Override
  public boolean supportsParameter(MethodParameter parameter) {
    return parameter.getParameterType() == Tenant.class;
  }

  @Override
  public Tenant resolveArgument(
      MethodParameter parameter,
      ModelAndViewContainer mavContainer,
      NativeWebRequest request,
      WebDataBinderFactory binderFactory) {
    Object tenant = request.getAttribute(Tenant.REQUEST_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
    if (tenant instanceof Tenant authenticated) {
      return authenticated;
    }
    // Only reachable if a public path were mapped to a tenant-scoped handler: fail closed.
    throw ApiException.unauthorized();
  }
}
