package dev.threadline.api.paging;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Lets a controller declare a {@link PageRequest} parameter, parsed from limit and offset. */
public class PageRequestArgumentResolver implements HandlerMethodArgumentResolver {
  @Override
  public boolean supportsParameter(MethodParameter parameter) {
    return parameter.getParameterType() == PageRequest.class;
  }

  @Override
  public PageRequest resolveArgument(
      MethodParameter parameter,
      ModelAndViewContainer mavContainer,
      NativeWebRequest request,
      WebDataBinderFactory binderFactory) {
    PageLimits limits = parameter.getParameterAnnotation(PageLimits.class);
    int defaultLimit = limits == null ? PageRequest.DEFAULT_LIMIT : limits.defaultLimit();
    int maxLimit = limits == null ? PageRequest.MAX_LIMIT : limits.maxLimit();
    return PageRequest.parse(
        request.getParameter(PageRequest.LIMIT),
        request.getParameter(PageRequest.OFFSET),
        defaultLimit,
        maxLimit);
  }
}
