import type { ModelPrice, ModelPriceRepository } from '../../core/ai/model-price.port';
import type { Database } from './database';

/** `model_price`, read once per settled call. */
export class PostgresModelPriceRepository implements ModelPriceRepository {
  constructor(private readonly database: Database) {}

  async find(model: string): Promise<ModelPrice | null> {
    const row = await this.database.db.selectFrom('model_price').selectAll().where('model', '=', model).executeTakeFirst();
    return row ? { model: row.model, inputUsdPerMillion: Number(row.input_usd_per_million), outputUsdPerMillion: Number(row.output_usd_per_million) } : null;
  }
}
