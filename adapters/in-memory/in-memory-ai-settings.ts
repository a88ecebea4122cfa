import type { ModelPrice, ModelPriceRepository } from '../../core/ai/model-price.port';
import type { SystemSettings, SystemSettingsRepository } from '../../core/ai/system-settings.port';

/** Prices for the in-memory wiring and tests: whatever the test puts in. */
export class InMemoryModelPriceRepository implements ModelPriceRepository {
  private readonly prices = new Map<string, ModelPrice>();

  constructor(prices: readonly ModelPrice[] = []) {
    for (const price of prices) this.prices.set(price.model, { ...price });
  }

  find(model: string): Promise<ModelPrice | null> {
    const price = this.prices.get(model);
    return Promise.resolve(price ? { ...price } : null);
  }
}

/** The deployment's switches, off until changed, as the seeded SQL row. */
export class InMemorySystemSettingsRepository implements SystemSettingsRepository {
  private settings: SystemSettings = { aiOverageEnabled: false };

  get(): Promise<SystemSettings> {
    return Promise.resolve({ ...this.settings });
  }

  update(changes: Partial<SystemSettings>): Promise<SystemSettings> {
    this.settings = { ...this.settings, ...changes };
    return this.get();
  }
}
