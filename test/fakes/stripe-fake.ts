import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { header } from './fake-provider-server';

/**
 * Stripe's wire protocol on 127.0.0.1, for the endpoints this service calls:
 * `POST /v1/customers` (https://docs.stripe.com/api/customers/create),
 * `POST /v1/checkout/sessions` (https://docs.stripe.com/api/checkout/sessions/create, both modes) and
 * `POST /v1/billing_portal/sessions` (https://docs.stripe.com/api/customer_portal/sessions/create).
 * `Authorization: Bearer <secret key>`, form-encoded bodies with bracketed keys, `Idempotency-Key`
 * headers (a replayed key answers the first object again; the same key with other parameters is
 * Stripe's `idempotency_error`), and Stripe's JSON objects and `{error: {type, code, param, message}}` bodies.
 */
export type StripeFailure = 'param-error' | 'card-error' | 'server-error';

export interface StripeCall {
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

/** Kept under its old name: the session-create calls. */
export type CheckoutCall = StripeCall;

export interface StripeFake {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Session-create requests that passed the protocol checks, failed on demand or not. */
  readonly checkouts: StripeCall[];
  readonly customerCalls: StripeCall[];
  readonly portalCalls: StripeCall[];
  /** Distinct customers created, by id. */
  readonly customers: Map<string, Record<string, unknown>>;
  /** Every protocol violation seen; empty when the SDK behaved. */
  readonly protocolErrors: string[];
  /** Fail the next `count` requests (of any endpoint) with `failure`. */
  failNext(failure: StripeFailure, count?: number): void;
  close(): Promise<void>;
}

const REQUIRED: Record<string, readonly string[]> = {
  '/v1/checkout/sessions': ['mode', 'success_url', 'cancel_url', 'client_reference_id', 'customer'],
  '/v1/customers': [],
  '/v1/billing_portal/sessions': ['customer'],
};

const FAILURES: Record<StripeFailure, { status: number; error: Record<string, string> }> = {
  'param-error': {
    status: 400,
    error: { type: 'invalid_request_error', code: 'resource_missing', param: 'line_items[0][price]', message: 'No such price' },
  },
  'card-error': { status: 402, error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
  'server-error': { status: 500, error: { type: 'api_error', message: 'An unknown error occurred, please try again.' } },
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface StripeFakeOptions {
  apiKey: string;
  /** The prices Stripe knows; a checkout for another one is refused as Stripe does. Default: any price. */
  prices?: readonly string[];
}

export async function startStripeFake(options: StripeFakeOptions): Promise<StripeFake> {
  const checkouts: StripeCall[] = [];
  const customerCalls: StripeCall[] = [];
  const portalCalls: StripeCall[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const protocolErrors: string[] = [];
  const failures: StripeFailure[] = [];
  const replies = new Map<string, { path: string; raw: string; body: unknown }>();

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(7).toString('hex')}` });
    res.end(JSON.stringify(body));
  };
  const reject = (res: ServerResponse, status: number, problems: string[]) => {
    protocolErrors.push(...problems);
    answer(res, status, { error: { type: 'invalid_request_error', message: problems.join('; ') } });
  };

  const create = (path: string, form: Record<string, string>): { status: number; body: unknown } => {
    switch (path) {
      case '/v1/customers': {
        const customer = { id: newId('cus'), object: 'customer', name: form.name ?? null, email: form.email ?? null, metadata: metadataOf(form) };
        customers.set(customer.id, customer);
        return { status: 200, body: customer };
      }
      case '/v1/checkout/sessions': {
        const price = form['line_items[0][price]'];
        if (price !== undefined && options.prices && !options.prices.includes(price)) {
          return { status: 400, body: { error: { ...FAILURES['param-error'].error, message: `No such price: '${price}'` } } };
        }
        if (!customers.has(form.customer!)) {
          return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: `No such customer: '${form.customer}'` } } };
        }
        const id = newId('cs_test');
        return {
          status: 200,
          body: {
            id,
            object: 'checkout.session',
            mode: form.mode,
            status: 'open',
            customer: form.customer,
            client_reference_id: form.client_reference_id,
            metadata: metadataOf(form),
            success_url: form.success_url,
            cancel_url: form.cancel_url,
            url: `https://checkout.stripe.com/c/pay/${id}`,
          },
        };
      }
      default: {
        if (!customers.has(form.customer!)) {
          return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: `No such customer: '${form.customer}'` } } };
        }
        const id = newId('bps');
        return { status: 200, body: { id, object: 'billing_portal.session', customer: form.customer, return_url: form.return_url ?? null, url: `https://billing.stripe.com/p/session/${id}` } };
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const required = REQUIRED[path];
    if (req.method !== 'POST' || !required) return reject(res, 404, [`unexpected ${req.method} ${path}`]);
    if (header(req.headers, 'authorization') !== `Bearer ${options.apiKey}`) {
      return reject(res, 401, ['Authorization is not "Bearer <the secret key>"']);
    }
    const problems: string[] = [];
    if (!header(req.headers, 'content-type')?.startsWith('application/x-www-form-urlencoded')) problems.push('body is not form-encoded');
    const form = Object.fromEntries(new URLSearchParams(raw));
    for (const field of required) if (!form[field]) problems.push(`${field} missing`);
    if (path === '/v1/checkout/sessions') {
      if (form.mode !== 'subscription' && form.mode !== 'payment') problems.push(`mode is ${form.mode}`);
      if (!form['line_items[0][price]'] && !form['line_items[0][price_data][currency]']) problems.push('line_items[0] has no price');
    }
    if (problems.length > 0) return reject(res, 400, problems);

    const idempotencyKey = header(req.headers, 'idempotency-key');
    const call = { form, idempotencyKey, stripeVersion: header(req.headers, 'stripe-version') };
    (path === '/v1/customers' ? customerCalls : path === '/v1/checkout/sessions' ? checkouts : portalCalls).push(call);
    const failure = failures.shift();
    if (failure) return answer(res, FAILURES[failure].status, { error: FAILURES[failure].error });
    const replay = idempotencyKey ? replies.get(idempotencyKey) : undefined;
    if (replay) {
      if (replay.path === path && replay.raw === raw) return answer(res, 200, replay.body);
      return answer(res, 400, {
        error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' },
      });
    }
    const { status, body } = create(path, form);
    if (idempotencyKey && status === 200) replies.set(idempotencyKey, { path, raw, body });
    answer(res, status, body);
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
    customerCalls,
    portalCalls,
    customers,
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
