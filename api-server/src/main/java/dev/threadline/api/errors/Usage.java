package dev.threadline.api.errors;

import java.math.BigDecimal;

/**
 * The caller's monthly usage allowance, sent with 402 Payment Required: the tier, its allowance and
 * what was used, both in USD.
 */
public record Usage(String tier, BigDecimal allowance, BigDecimal used) {}
