import type { ModelPrice, ModelPriceRepository } from '../../core/ai/model-price.port';
import type { Database, PreparedSql } from './database';

// Read once per settled copilot call: prepared, so PostgreSQL plans it once per connection and
// the app builds no query for it.
const FIND: PreparedSql = {
  name: 'model_price_find',
  text: 'select model, input_usd_per_million, output_usd_per_million from model_price where model = $1',
};

interface PriceRow {
  model: string;
  input_usd_per_million: number | string;
  output_usd_per_million: number | string;
}

/** `model_price`, read once per settled call. */
export class PostgresModelPriceRepository implements ModelPriceRepository {
  constructor(private readonly database: Database) {}

  async find(model: string): Promise<ModelPrice | null> {
    const [row] = await this.database.select<PriceRow>(FIND, [model]);
    return row ? { model: row.model, inputUsdPerMillion: Number(row.input_usd_per_million), outputUsdPerMillion: Number(row.output_usd_per_million) } : null;
  }
}
