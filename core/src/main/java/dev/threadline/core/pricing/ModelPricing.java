package dev.threadline.core.pricing;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Per-model token prices from configuration, which turn token counts into a cost in USD. Pure logic
 * in {@code core}, so that the api-server checks an agent's model without the provider SDKs.
 *
 * <p>The spec lists {@code model=input/output[/cached]} entries separated by commas, in USD per
 * million tokens, e.g. {@code gpt-4.1-mini=0.40/1.60/0.10,claude-sonnet-4-5=3/15/0.30}. Without a
 * cached price, cached tokens cost the input price. The entry {@code *=input/output[/cached]} is
 * the default price, for every model without its own entry. Models without a price cost nothing (an
 * unknown price must not fail a run that has started; {@link #isPriced} lets callers refuse such a
 * model before), and the scripted model is always free.
 */
public final class ModelPricing {

  /**
   * Providers answer with dated names ({@code claude-sonnet-4-5-20250929}); they cost the base's
   * price.
   */
  private static final Pattern VERSION_SUFFIX =
      Pattern.compile("-(\\d{8}|\\d{4}-\\d{2}-\\d{2}|latest)$");

  private static final Pattern MODEL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@+-]*");

  /**
   * The offline scripted model's name, and its provider's ({@code SCRIPTED} in {@code models},
   * which does not depend on core): free by nature.
   */
  public static final String SCRIPTED = "scripted";

  /** The model name of the default price's entry. */
  public static final String DEFAULT = "*";

  private static final ModelPricing NONE = new ModelPricing(Map.of());

  private final Map<String, TokenPrice> prices;

  private ModelPricing(Map<String, TokenPrice> prices) {
    this.prices = Collections.unmodifiableMap(new LinkedHashMap<>(prices));
  }

  /** No prices: every model is free. */
  public static ModelPricing none() {
    return NONE;
  }

  public static ModelPricing of(Map<String, TokenPrice> prices) {
    return new ModelPricing(prices);
  }

  /**
   * Reads a price list; null or blank means none.
   *
   * @throws IllegalArgumentException naming the malformed entry
   */
  public static ModelPricing parse(String spec) {
    if (spec == null || spec.isBlank()) {
      return NONE;
    }
    Map<String, TokenPrice> prices = new LinkedHashMap<>();
    String[] entries = spec.split(",");
    for (int i = 0; i < entries.length; i++) {
      String entry = entries[i].strip();
      if (entry.isEmpty()) {
        continue; // tolerate "a=1/2," and line-continued lists
      }
      String where = "model price entry " + (i + 1) + " '" + entry + "'";
      int equals = entry.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException(
            where + " must look like model=input/output[/cached] (USD per million tokens)");
      }
      String model = entry.substring(0, equals).strip();
      if (!DEFAULT.equals(model) && !MODEL_NAME.matcher(model).matches()) {
        throw new IllegalArgumentException(where + " has no valid model name before '='");
      }
      if (prices.containsKey(model)) {
        throw new IllegalArgumentException(where + " prices " + model + " a second time");
      }
      prices.put(model, price(entry.substring(equals + 1), where));
    }
    return new ModelPricing(prices);
  }

  private static TokenPrice price(String values, String where) {
    String[] parts = values.split("/", -1);
    if (parts.length < 2 || parts.length > 3) {
      throw new IllegalArgumentException(
          where
              + " needs input/output or input/output/cached prices, found "
              + parts.length
              + " value(s)");
    }
    BigDecimal input = amount(parts[0], "input", where);
    BigDecimal output = amount(parts[1], "output", where);
    BigDecimal cached = parts.length == 3 ? amount(parts[2], "cached", where) : input;
    return new TokenPrice(input, output, cached);
  }

  private static BigDecimal amount(String text, String kind, String where) {
    String value = text.strip();
    BigDecimal amount;
    try {
      amount = new BigDecimal(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          where + ": the " + kind + " price '" + value + "' is not a number");
    }
    if (amount.signum() < 0) {
      throw new IllegalArgumentException(where + ": the " + kind + " price must not be negative");
    }
    return amount;
  }

  /**
   * The configured price of {@code model}, also for its dated variants, else the default price if
   * one is configured.
   */
  public Optional<TokenPrice> price(String model) {
    if (model == null || SCRIPTED.equals(model)) {
      return Optional.empty();
    }
    TokenPrice exact = prices.get(model);
    if (exact != null) {
      return Optional.of(exact);
    }
    return Optional.ofNullable(prices.get(VERSION_SUFFIX.matcher(model).replaceFirst("")))
        .or(() -> Optional.ofNullable(prices.get(DEFAULT)));
  }

  /**
   * Whether a run on {@code model} can be billed: the scripted model (free by nature) or a model
   * with a price of its own or the default price.
   */
  public boolean isPriced(String model) {
    return SCRIPTED.equals(model) || price(model).isPresent();
  }

  /**
   * Whether an agent of {@code provider} (blank: scripted) naming {@code model} can be billed: a
   * scripted agent costs nothing whatever its model's name; any other needs {@link
   * #isPriced(String)}. Agents naming an unbillable model are refused, so none runs for free.
   */
  public boolean isPriced(String provider, String model) {
    boolean scripted =
        provider == null || provider.isBlank() || SCRIPTED.equalsIgnoreCase(provider.strip());
    return scripted || isPriced(model);
  }

  /**
   * Cost in USD of these tokens on {@code model}: 0 when the model has no price (or is scripted).
   * {@code cachedTokens} are part of {@code inputTokens}, billed at the cached price.
   */
  public BigDecimal cost(String model, long inputTokens, long outputTokens, long cachedTokens) {
    return price(model)
        .map(price -> cost(price, inputTokens - cachedTokens, outputTokens, cachedTokens))
        .orElse(BigDecimal.ZERO);
  }

  private static BigDecimal cost(
      TokenPrice price, long uncachedInputTokens, long outputTokens, long cachedTokens) {
    BigDecimal perMillion =
        price
            .input()
            .multiply(BigDecimal.valueOf(uncachedInputTokens))
            .add(price.output().multiply(BigDecimal.valueOf(outputTokens)))
            .add(price.cached().multiply(BigDecimal.valueOf(cachedTokens)));
    // Exact: dividing by a power of ten only moves the decimal point.
    BigDecimal cost = perMillion.movePointLeft(6).stripTrailingZeros();
    return cost.scale() < 0 ? cost.setScale(0) : cost; // 10, not 1E+1
  }

  /** The configured prices, by model name. */
  public Map<String, TokenPrice> prices() {
    return prices;
  }

  @Override
  public String toString() {
    return "ModelPricing" + prices.keySet();
  }
}
