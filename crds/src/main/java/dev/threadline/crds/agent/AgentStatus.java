package dev.threadline.crds.agent;

import dev.threadline.crds.common.ResourceStatus;

/** An agent's status: whether its configuration is valid (the `Ready` condition). */
public class AgentStatus extends ResourceStatus {}
