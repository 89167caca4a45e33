/**
 * Pure domain logic shared by the operator and the api-server: one sub-package per concept
 * (environment images, schedules, routing, thread totals...). Nothing here talks to Kubernetes or
 * HTTP.
 */
package dev.threadline.core;
