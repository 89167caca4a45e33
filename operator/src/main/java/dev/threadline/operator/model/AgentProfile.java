package dev.threadline.operator.model;

/** The agent a run answers as: which provider and model, with which instructions. */
public record AgentProfile(String provider, String model, String instructions) {}
