import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { createApiClient, CookieJar, type ApiClient } from '../../app/client/index';
import type { Database } from '../../adapters/postgres/database';
import type { RoleName } from '../../core/access/role';
import type { TestApp } from './app';
import { testSessions, type TestSession } from './sessions';

/** Helpers shared by the copilot, usage and credit-pack end-to-end tests. */

export interface PlanFeatures {
  max_notes?: number;
  max_projects?: number;
  token_limit: number;
  enable_ai: boolean;
}

export interface Caller extends TestSession {
  api: ApiClient;
}

export interface CopilotWorld {
  as(role: RoleName, organizationId?: number): Promise<Caller>;
  /**
   * Puts the organization on a plan of its own with these features: a plan sold as its own
   * product and an active subscription to it, the way a paid organization gets its plan. Several
   * organizations of one app can then have different allotments. Returns the plan's id, for
   * `setPlanFeatures`.
   */
  givePlan(organizationId: number, features: PlanFeatures): Promise<number>;
  setPlanFeatures(planId: number, features: PlanFeatures): Promise<void>;
  /** A note of the caller's, created through the API. */
  noteOf(caller: Caller, title?: string, content?: string): Promise<number>;
  usageRows(organizationId: number): Promise<UsageRow[]>;
  reservations(organizationId: number): Promise<number>;
}

export interface UsageRow {
  id: number;
  user_id: number | null;
  feature: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  allotment_tokens: number;
  credit_tokens: number;
  overage_tokens: number;
}

export function copilotWorld(app: TestApp): CopilotWorld {
  const database: Database = app.db!.database;
  const sessions = testSessions(database);
  const clientFor = (session: TestSession): ApiClient => {
    const jar = new CookieJar();
    jar.set(app.config.sessionCookieName, session.token);
    return createApiClient(app.url, jar);
  };
  const featuresJson = (features: PlanFeatures) => JSON.stringify({ max_notes: 1000, max_projects: -1, ...features });
  return {
    async as(role, organizationId) {
      const session = await sessions.loginAs(role, organizationId ?? (await sessions.newOrganization()));
      return { ...session, api: clientFor(session) };
    },
    async givePlan(organizationId, features) {
      const product = `prod_e2e_${randomBytes(6).toString('hex')}`;
      const [plan] = await database.select<{ id: number }>(
        `insert into plan (name, description, features, stripe_product_id, is_default, is_active, created_at, updated_at)
         values ($1, null, $2::jsonb, $3, false, true, now(), now()) returning id`,
        [`Plan ${product}`, featuresJson(features), product],
      );
      await database.run(
        `insert into subscription (organization_id, status, product_id, cancel_at_period_end, event_at, updated_at)
         values ($1, 'active', $2, false, now(), now())
         on conflict (organization_id) do update set status = 'active', product_id = excluded.product_id`,
        [organizationId, product],
      );
      return plan!.id;
    },
    async setPlanFeatures(planId, features) {
      await database.run('update plan set features = $2::jsonb, updated_at = now() where id = $1', [planId, featuresJson(features)]);
    },
    async noteOf(caller, title = 'Quarterly plan', content = 'We shipp the new billing page in march and fix teh invoices.') {
      const created = await caller.api.POST('/notes', { body: { title, content } });
      expect(created.response.status).toBe(201);
      return created.data!.id;
    },
    usageRows: (organizationId) =>
      database.select<UsageRow>(
        // int8 columns: cast for the driver to hand over numbers (one call's counts fit int4; the
        // id as float8, exact below 2^53).
        `select id::float8 as id, user_id, feature, model, input_tokens::int4 as input_tokens, output_tokens::int4 as output_tokens,
           allotment_tokens::int4 as allotment_tokens, credit_tokens::int4 as credit_tokens, overage_tokens::int4 as overage_tokens
         from llm_usage_log where organization_id = $1 order by id`,
        [organizationId],
      ),
    async reservations(organizationId) {
      const [row] = await database.select<{ count: string }>('select count(*) as count from ai_reservation where organization_id = $1', [organizationId]);
      return Number(row!.count);
    },
  };
}

/** Reads a streamed body to its end, chunk by chunk as the socket delivers them. */
export async function readChunks(body: ReadableStream<Uint8Array>): Promise<string[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(decoder.decode(value, { stream: true }));
  }
  return chunks;
}

/** The copilot's input estimate for a request the model received: characters ÷ 4, rounded up. */
export const inputEstimateOf = (request: { instructions: string | undefined; input: unknown }): number =>
  Math.ceil(([...(request.instructions ?? '')].length + [...String(request.input)].length) / 4);

/** Polls `probe` until it answers something other than undefined, for at most `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
