package dev.threadline.core.routing;

/** A route and, for the record on the Run, why it was chosen. */
public record RoutingDecision(Route route, String reason) {}
