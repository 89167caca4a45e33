package dev.threadline.api.agents;

/** {@code {agent}}: single-agent responses are wrapped like the contract's {@code {thread}}. */
public record AgentResponse(AgentView agent) {}
