import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { header } from './fake-provider-server';

/**
 * Stripe's wire protocol for `POST /v1/checkout/sessions` (https://docs.stripe.com/api/checkout/sessions/create),
 * on 127.0.0.1: `Authorization: Bearer <secret key>`, a form-encoded body with bracketed keys,
 * an `Idempotency-Key` header (a replayed key answers the first session again, as Stripe does),
 * and Stripe's JSON objects and `{error: {type, code, param, message}}` bodies.
 */
export type StripeFailure = 'param-error' | 'card-error' | 'server-error';

export interface CheckoutCall {
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

export interface StripeFake {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Session-create requests that passed the protocol checks, failed on demand or not. */
  readonly checkouts: CheckoutCall[];
  /** Every protocol violation seen; empty when the SDK behaved. */
  readonly protocolErrors: string[];
  /** Fail the next `count` session-create requests with `failure`. */
  failNext(failure: StripeFailure, count?: number): void;
  close(): Promise<void>;
}

const REQUIRED = ['mode', 'line_items[0][price]', 'success_url', 'cancel_url', 'client_reference_id'] as const;

const FAILURES: Record<StripeFailure, { status: number; error: Record<string, string> }> = {
  'param-error': {
    status: 400,
    error: { type: 'invalid_request_error', code: 'resource_missing', param: 'line_items[0][price]', message: 'No such price' },
  },
  'card-error': { status: 402, error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
  'server-error': { status: 500, error: { type: 'api_error', message: 'An unknown error occurred, please try again.' } },
};

export interface StripeFakeOptions {
  apiKey: string;
  /** The prices Stripe knows; a checkout for another one is refused as Stripe does. Default: any price. */
  prices?: readonly string[];
}

export async function startStripeFake(options: StripeFakeOptions): Promise<StripeFake> {
  const checkouts: CheckoutCall[] = [];
  const protocolErrors: string[] = [];
  const failures: StripeFailure[] = [];
  const sessionsByKey = new Map<string, unknown>();

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(7).toString('hex')}` });
    res.end(JSON.stringify(body));
  };
  const reject = (res: ServerResponse, status: number, problems: string[]) => {
    protocolErrors.push(...problems);
    answer(res, status, { error: { type: 'invalid_request_error', message: problems.join('; ') } });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'POST' || path !== '/v1/checkout/sessions') return reject(res, 404, [`unexpected ${req.method} ${path}`]);
    if (header(req.headers, 'authorization') !== `Bearer ${options.apiKey}`) {
      return reject(res, 401, ['Authorization is not "Bearer <the secret key>"']);
    }
    const problems: string[] = [];
    if (!header(req.headers, 'content-type')?.startsWith('application/x-www-form-urlencoded')) problems.push('body is not form-encoded');
    const form = Object.fromEntries(new URLSearchParams(raw));
    for (const field of REQUIRED) if (!form[field]) problems.push(`${field} missing`);
    if (form.mode && form.mode !== 'subscription') problems.push(`mode is ${form.mode}, not subscription`);
    if (problems.length > 0) return reject(res, 400, problems);

    const idempotencyKey = header(req.headers, 'idempotency-key');
    checkouts.push({ form, idempotencyKey, stripeVersion: header(req.headers, 'stripe-version') });
    const failure = failures.shift();
    if (failure) return answer(res, FAILURES[failure].status, { error: FAILURES[failure].error });
    const price = form['line_items[0][price]'] ?? '';
    if (options.prices && !options.prices.includes(price)) {
      return answer(res, 400, { error: { ...FAILURES['param-error'].error, message: `No such price: '${price}'` } });
    }
    const replay = idempotencyKey ? sessionsByKey.get(idempotencyKey) : undefined;
    if (replay) return answer(res, 200, replay);
    const id = `cs_test_${randomBytes(12).toString('hex')}`;
    const session = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      client_reference_id: form.client_reference_id,
      customer_email: form.customer_email ?? null,
      metadata: metadataOf(form),
      success_url: form.success_url,
      cancel_url: form.cancel_url,
      url: `https://checkout.stripe.com/c/pay/${id}`,
    };
    if (idempotencyKey) sessionsByKey.set(idempotencyKey, session);
    answer(res, 200, session);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      protocolErrors.push(`fake crashed: ${String(error)}`);
      if (!res.headersSent) answer(res, 500, { error: { type: 'api_error', message: 'fake crashed' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    checkouts,
    protocolErrors,
    failNext(failure, count = 1) {
      for (let i = 0; i < count; i += 1) failures.push(failure);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const metadataOf = (form: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(form)
      .map(([key, value]) => [/^metadata\[(\w+)\]$/.exec(key)?.[1], value] as const)
      .filter((entry): entry is readonly [string, string] => entry[0] !== undefined),
  );

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
