package dev.threadline.api.paging;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Overrides the default {@code limit} rules for one endpoint's {@link PageRequest} parameter.
 * Without it: default 50, range 1-100.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface PageLimits {
  int defaultLimit() default PageRequest.DEFAULT_LIMIT;

  int maxLimit() default PageRequest.MAX_LIMIT;
}
