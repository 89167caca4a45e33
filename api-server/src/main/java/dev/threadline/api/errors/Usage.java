package dev.threadline.api.errors;

/** The caller's monthly usage allowance, sent with 402 Payment Required. */
public record Usage(String tier, long allowance, long used) {}
