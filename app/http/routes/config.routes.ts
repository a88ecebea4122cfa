import * as v from 'valibot';
import type { AppConfig } from '../../config/config';
import { defineRoute, type AnyRoute } from '../route';

const ConfigResponse = v.object({
  mode: v.picklist(['b2c', 'b2b']),
  signup: v.pipe(v.boolean(), v.description('Self-service signup is open (B2C)')),
  identity_provider: v.pipe(v.boolean(), v.description('Sign-in through the OpenID Connect provider is configured')),
  billing: v.pipe(v.boolean(), v.description('Stripe is configured: checkout, portal and credit packs answer')),
  ai: v.pipe(v.boolean(), v.description('The AI copilot is configured (an OpenAI key is set); plans still decide who may use it')),
});

/** What this deployment offers, so a frontend knows which screens to show. Settings only: nothing secret. */
export function configRoutes(config: Pick<AppConfig, 'mode' | 'idp' | 'stripe' | 'openai'>): AnyRoute[] {
  const body: v.InferOutput<typeof ConfigResponse> = {
    mode: config.mode,
    signup: config.mode === 'b2c',
    identity_provider: config.idp !== undefined,
    billing: config.stripe !== undefined,
    ai: config.openai !== undefined,
  };
  return [
    defineRoute({
      method: 'get',
      path: '/config',
      tag: 'System',
      operationId: 'getConfig',
      summary: 'Which features this deployment offers',
      description: 'Settings only, nothing secret: `signup` in B2C mode, `identity_provider`, `billing` and `ai` when configured.',
      access: 'public',
      responses: { 200: { description: 'The runtime configuration a frontend needs', schema: ConfigResponse } },
      handler: async () => ({ status: 200, body }),
    }),
  ];
}
