package dev.threadline.api.config;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring Boot application: everything under {@code dev.threadline.api}. Started only through
 * {@link dev.threadline.api.ThreadlineApiServer}, which supplies the Kubernetes client and
 * settings.
 */
@SpringBootApplication(scanBasePackages = "dev.threadline.api")
public class ApiServerApplication {}
