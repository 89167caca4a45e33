/**
 * Environment images as pure logic: which runtimes and package names are allowed, the effective
 * Dockerfile rendered from an {@link dev.threadline.core.environment.ImageSpec}, a syntax check for
 * the user's Dockerfile extensions, the build hash and image tag, and the classification of a
 * failed build into the contract's messages. The api-server and the operator both call this;
 * nothing here talks to Kubernetes, HTTP or a registry.
 */
package dev.threadline.core.environment;
