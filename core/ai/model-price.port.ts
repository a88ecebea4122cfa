/** USD per million tokens, as the provider prices the model. */
export interface ModelPrice {
  model: string;
  inputUsdPerMillion: number;
  outputUsdPerMillion: number;
}

/** The `model_price` table: seeded with the models the copilot is expected to run on. */
export interface ModelPriceRepository {
  /** The exact model name's price, or null when none is on record. */
  find(model: string): Promise<ModelPrice | null>;
}

/** What a call cost, in USD; rounded to a millionth of a cent is more than enough. */
export const callCost = (price: ModelPrice, inputTokens: number, outputTokens: number): number =>
  Math.round(((inputTokens * price.inputUsdPerMillion + outputTokens * price.outputUsdPerMillion) / 1_000_000) * 1e8) / 1e8;
