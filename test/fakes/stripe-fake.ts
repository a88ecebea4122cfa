import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkoutSessionEvent, signed } from '../builders/stripe-events';
import { header } from './fake-provider-server';

/**
 * Stripe's wire protocol on 127.0.0.1, for the endpoints this service calls:
 * `POST /v1/customers` (https://docs.stripe.com/api/customers/create),
 * `POST /v1/checkout/sessions` (https://docs.stripe.com/api/checkout/sessions/create: subscription
 * mode with a price, payment mode with inline `price_data`),
 * `GET /v1/checkout/sessions/{id}` (https://docs.stripe.com/api/checkout/sessions/retrieve),
 * `GET /v1/prices/{id}` (https://docs.stripe.com/api/prices/retrieve: a price `price_X` sells the product `prod_X`),
 * `POST /v1/billing_portal/sessions` (https://docs.stripe.com/api/customer_portal/sessions/create) and
 * `POST /v1/billing/meter_events` (https://docs.stripe.com/api/billing/meter-event/create).
 * `Authorization: Bearer <secret key>`, form-encoded bodies with bracketed keys, `Idempotency-Key`
 * headers (a replayed key answers the first object again; the same key with other parameters is
 * Stripe's `idempotency_error`), and Stripe's JSON objects and `{error: {type, code, param, message}}` bodies.
 *
 * Sessions are kept: a test plays the customer with `completeSession`, reads the session back as
 * the adapter would, and has `completedSessionWebhook` sign the event Stripe would then send.
 */
export type StripeFailure = 'param-error' | 'card-error' | 'server-error' | 'rate-limited' | 'duplicate-meter-event';

export interface StripeCall {
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

/** Kept under its old name: the session-create calls. */
export type CheckoutCall = StripeCall;

/** A Checkout Session as Stripe holds it (the fields this service sends or reads). */
export interface StripeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: 'subscription' | 'payment';
  status: 'open' | 'complete';
  payment_status: 'paid' | 'unpaid';
  customer: string;
  client_reference_id: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string;
  amount_total: number | null;
  currency: string | null;
  payment_intent: string | null;
  subscription: string | null;
}

/** A meter event Stripe accepted, one per identifier. */
export interface StripeMeterEvent {
  eventName: string;
  identifier: string;
  customerId: string;
  /** As sent: Stripe's payload values are strings. */
  value: string;
  /** Unix seconds. */
  timestamp: number;
}

export interface StripeFake {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Session-create requests that passed the protocol checks, failed on demand or not. */
  readonly checkouts: StripeCall[];
  readonly customerCalls: StripeCall[];
  readonly portalCalls: StripeCall[];
  /** Meter-event requests that passed the protocol checks, duplicates and failures included. */
  readonly meterEventCalls: StripeCall[];
  /** Meter events Stripe counted: one per identifier, however often it was sent. */
  readonly meterEvents: StripeMeterEvent[];
  /** The ids every `GET /v1/checkout/sessions/{id}` asked for, decoded. */
  readonly sessionLookups: string[];
  /** The ids every `GET /v1/prices/{id}` asked for, decoded. */
  readonly priceLookups: string[];
  /** Distinct customers created, by id. */
  readonly customers: Map<string, Record<string, unknown>>;
  /** Every protocol violation seen; empty when the SDK behaved. */
  readonly protocolErrors: string[];
  /** The price stays known but is no longer sold (`active: false`), as after archiving it in the dashboard. */
  archivePrice(id: string): void;
  /** Fail the next `count` requests (of any endpoint) with `failure`. */
  failNext(failure: StripeFailure, count?: number): void;
  /** The session as Stripe holds it now; undefined for an id it never created. */
  session(id: string): StripeCheckoutSession | undefined;
  /** The session id behind a checkout URL this fake handed out. */
  sessionIdFrom(url: string): string;
  /**
   * The customer finished the hosted checkout: `paid` (default) or with a delayed payment method
   * still pending (`payment_status: unpaid`). Answers the session as it now is.
   */
  completeSession(id: string, options?: { paid?: boolean }): StripeCheckoutSession;
  /**
   * The webhook Stripe sends for a completed session, as it is now, signed with `secret`:
   * `checkout.session.completed` by default, or the later `checkout.session.async_payment_succeeded`.
   */
  completedSessionWebhook(
    id: string,
    secret: string,
    options?: { eventId?: string; type?: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded'; at?: Date },
  ): { payload: string; signature: string };
  close(): Promise<void>;
}

type Form = Record<string, string>;
type Reply = { status: number; body: unknown };

/** What this service must always send; a missing one is a protocol error of the adapter. */
const REQUIRED: Record<string, readonly string[]> = {
  '/v1/checkout/sessions': ['mode', 'success_url', 'cancel_url', 'client_reference_id', 'customer'],
  '/v1/customers': [],
  '/v1/billing_portal/sessions': ['customer'],
  '/v1/billing/meter_events': ['event_name', 'payload[stripe_customer_id]', 'payload[value]', 'identifier', 'timestamp'],
};

const FAILURES: Record<StripeFailure, { status: number; error: Record<string, string> }> = {
  'param-error': {
    status: 400,
    error: { type: 'invalid_request_error', code: 'resource_missing', param: 'line_items[0][price]', message: 'No such price' },
  },
  'card-error': { status: 402, error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
  'server-error': { status: 500, error: { type: 'api_error', message: 'An unknown error occurred, please try again.' } },
  'rate-limited': { status: 429, error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Request rate limit exceeded.' } },
  // The refusal in the form the v2 API documents; the v1 form (message only) is what a real resend gets here.
  'duplicate-meter-event': {
    status: 400,
    error: { type: 'invalid_request_error', code: 'duplicate_meter_event', message: 'A meter event with a duplicate identifier has already been submitted.' },
  },
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const invalid = (param: string | undefined, message: string, code?: string): Reply => ({
  status: 400,
  body: { error: { type: 'invalid_request_error', ...(code ? { code } : {}), ...(param ? { param } : {}), message } },
});
const missingParam = (param: string) => invalid(param, `Missing required param: ${param}.`, 'parameter_missing');
const noSuchCustomer = (customer: string | undefined) => invalid('customer', `No such customer: '${customer}'`, 'resource_missing');

/** Stripe keeps meter events from 35 days back to 5 minutes ahead. */
const METER_PAST_SECONDS = 35 * 86_400;
const METER_FUTURE_SECONDS = 300;

/** What Stripe refuses in a payment-mode line item priced inline, in the order it checks. */
function priceDataProblem(form: Form): Reply | undefined {
  const item = 'line_items[0]';
  for (const field of ['price_data][currency', 'price_data][unit_amount', 'price_data][product_data][name', 'quantity']) {
    if (!form[`${item}[${field}]`]) return missingParam(`${item}[${field}]`);
  }
  if (!/^[a-z]{3}$/.test(form[`${item}[price_data][currency]`]!)) return invalid(`${item}[price_data][currency]`, 'Invalid currency', 'invalid_currency'); // lower-case ISO 4217
  if (!/^\d+$/.test(form[`${item}[price_data][unit_amount]`]!)) return invalid(`${item}[price_data][unit_amount]`, 'Invalid non-negative integer');
  if (!/^[1-9]\d*$/.test(form[`${item}[quantity]`]!)) return invalid(`${item}[quantity]`, 'Invalid positive integer');
  return undefined;
}

/** Stripe's refusals of a session-create request whose form passed the protocol checks. */
function checkoutProblem(form: Form): Reply | undefined {
  if (form.mode === 'payment') {
    if (Object.keys(form).some((key) => key.startsWith('subscription_data['))) return invalid('subscription_data', 'You can only pass subscription_data in subscription mode.');
    return priceDataProblem(form);
  }
  if (Object.keys(form).some((key) => key.startsWith('payment_intent_data['))) return invalid('payment_intent_data', 'You can not pass `payment_intent_data` in `subscription` mode.');
  return undefined;
}

function meterEventProblem(form: Form): Reply | undefined {
  if (form.event_name!.length > 100) return invalid('event_name', 'event_name is longer than 100 characters');
  if (form.identifier!.length > 100) return invalid('identifier', 'identifier is longer than 100 characters');
  if (!/^-?\d+(\.\d+)?$/.test(form['payload[value]']!)) return invalid('payload[value]', 'The value must be a number');
  const timestamp = Number(form.timestamp);
  const now = nowSeconds();
  if (!Number.isInteger(timestamp) || timestamp < now - METER_PAST_SECONDS || timestamp > now + METER_FUTURE_SECONDS) {
    return invalid('timestamp', 'Timestamp must be within the past 35 calendar days and no more than 5 minutes in the future.');
  }
  return undefined;
}

/** The session-create form as Stripe would store the session. */
function newSession(form: Form): StripeCheckoutSession {
  const id = newId('cs_test');
  const payment = form.mode === 'payment';
  return {
    id,
    object: 'checkout.session',
    mode: payment ? 'payment' : 'subscription',
    status: 'open',
    payment_status: 'unpaid',
    customer: form.customer!,
    client_reference_id: form.client_reference_id!,
    metadata: metadataOf(form),
    success_url: form.success_url!,
    cancel_url: form.cancel_url!,
    url: `https://checkout.stripe.com/c/pay/${id}`,
    amount_total: payment ? Number(form['line_items[0][price_data][unit_amount]']) * Number(form['line_items[0][quantity]']) : null,
    currency: payment ? form['line_items[0][price_data][currency]']! : null,
    payment_intent: null,
    subscription: null,
  };
}

export interface StripeFakeOptions {
  apiKey: string;
  /** The prices Stripe knows; a checkout for another one is refused as Stripe does. Default: any `price_…`. */
  prices?: readonly string[];
}

export async function startStripeFake(options: StripeFakeOptions): Promise<StripeFake> {
  const checkouts: StripeCall[] = [];
  const customerCalls: StripeCall[] = [];
  const portalCalls: StripeCall[] = [];
  const meterEventCalls: StripeCall[] = [];
  const meterEvents: StripeMeterEvent[] = [];
  const sessionLookups: string[] = [];
  const priceLookups: string[] = [];
  const archivedPrices = new Set<string>();
  const customers = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, StripeCheckoutSession>();
  const protocolErrors: string[] = [];
  const failures: StripeFailure[] = [];
  const replies = new Map<string, { path: string; raw: string; body: unknown }>();
  const callsByPath: Record<string, StripeCall[]> = {
    '/v1/customers': customerCalls,
    '/v1/checkout/sessions': checkouts,
    '/v1/billing_portal/sessions': portalCalls,
    '/v1/billing/meter_events': meterEventCalls,
  };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(7).toString('hex')}` });
    res.end(JSON.stringify(body));
  };
  const reject = (res: ServerResponse, status: number, problems: string[]) => {
    protocolErrors.push(...problems);
    answer(res, status, { error: { type: 'invalid_request_error', message: problems.join('; ') } });
  };

  const createCheckout = (form: Form): Reply => {
    const price = form['line_items[0][price]'];
    if (price !== undefined && options.prices && !options.prices.includes(price)) {
      return { status: 400, body: { error: { ...FAILURES['param-error'].error, message: `No such price: '${price}'` } } };
    }
    if (!customers.has(form.customer!)) return noSuchCustomer(form.customer);
    const refusal = checkoutProblem(form);
    if (refusal) return refusal;
    const session = newSession(form);
    sessions.set(session.id, session);
    return { status: 200, body: { ...session } };
  };

  const createMeterEvent = (form: Form): Reply => {
    const refusal = meterEventProblem(form);
    if (refusal) return refusal;
    const identifier = form.identifier!;
    // Stripe refuses a resent identifier rather than answering it again; seen with the message only, no code.
    if (meterEvents.some((event) => event.identifier === identifier)) return invalid(undefined, `An event already exists with identifier ${identifier}.`);
    const event = { eventName: form.event_name!, identifier, customerId: form['payload[stripe_customer_id]']!, value: form['payload[value]']!, timestamp: Number(form.timestamp) };
    meterEvents.push(event);
    const payload = { stripe_customer_id: event.customerId, value: event.value };
    return { status: 200, body: { object: 'billing.meter_event', created: nowSeconds(), event_name: event.eventName, identifier, livemode: false, payload, timestamp: event.timestamp } };
  };

  const create = (path: string, form: Form): Reply => {
    switch (path) {
      case '/v1/customers': {
        const customer = { id: newId('cus'), object: 'customer', name: form.name ?? null, email: form.email ?? null, metadata: metadataOf(form) };
        customers.set(customer.id, customer);
        return { status: 200, body: customer };
      }
      case '/v1/checkout/sessions':
        return createCheckout(form);
      case '/v1/billing/meter_events':
        return createMeterEvent(form);
      default: {
        if (!customers.has(form.customer!)) return noSuchCustomer(form.customer);
        const id = newId('bps');
        return { status: 200, body: { id, object: 'billing_portal.session', customer: form.customer, return_url: form.return_url ?? null, url: `https://billing.stripe.com/p/session/${id}` } };
      }
    }
  };

  /** `GET /v1/prices/{id}`: known prices answer with their product; others with Stripe's 404. */
  const retrievePrice = (encodedId: string): Reply => {
    const id = decoded(encodedId);
    priceLookups.push(id);
    const failure = failures.shift();
    if (failure) return { status: FAILURES[failure].status, body: { error: FAILURES[failure].error } };
    const known = /^price_(\w+)$/.exec(id);
    if (!known || (options.prices && !options.prices.includes(id))) {
      return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'price', message: `No such price: '${id}'` } } };
    }
    const body = { id, object: 'price', active: !archivedPrices.has(id), product: `prod_${known[1]}`, currency: 'usd', unit_amount: 1_900, type: 'recurring', livemode: false };
    return { status: 200, body };
  };

  /** `GET /v1/checkout/sessions/{id}`: Stripe's two refusals, an id it cannot read and one it has no session for. */
  const retrieveSession = (encodedId: string): Reply => {
    const id = decoded(encodedId);
    sessionLookups.push(id);
    const failure = failures.shift();
    if (failure) return { status: FAILURES[failure].status, body: { error: FAILURES[failure].error } };
    if (!/^cs_\w+$/.test(id)) return invalid(undefined, `Invalid checkout.session id: ${id}`);
    const session = sessions.get(id);
    if (!session) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${id}'` } } };
    return { status: 200, body: { ...session } };
  };

  const handlePost = (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    const problems: string[] = [];
    if (!header(req.headers, 'content-type')?.startsWith('application/x-www-form-urlencoded')) problems.push('body is not form-encoded');
    const form = Object.fromEntries(new URLSearchParams(raw));
    for (const field of REQUIRED[path]!) if (!form[field]) problems.push(`${field} missing`);
    if (path === '/v1/checkout/sessions') {
      if (form.mode !== 'subscription' && form.mode !== 'payment') problems.push(`mode is ${form.mode}`);
      if (!form['line_items[0][price]'] && !form['line_items[0][price_data][currency]']) problems.push('line_items[0] has no price');
    }
    if (problems.length > 0) return reject(res, 400, problems);

    const idempotencyKey = header(req.headers, 'idempotency-key');
    callsByPath[path]!.push({ form, idempotencyKey, stripeVersion: header(req.headers, 'stripe-version') });
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

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    const pricePath = /^\/v1\/prices\/([^/]+)$/.exec(path);
    const known = req.method === 'POST' ? REQUIRED[path] !== undefined : req.method === 'GET' && (sessionPath !== null || pricePath !== null);
    if (!known) return reject(res, 404, [`unexpected ${req.method} ${path}`]);
    if (header(req.headers, 'authorization') !== `Bearer ${options.apiKey}`) {
      return reject(res, 401, ['Authorization is not "Bearer <the secret key>"']);
    }
    if (sessionPath || pricePath) {
      const { status, body } = sessionPath ? retrieveSession(sessionPath[1]!) : retrievePrice(pricePath![1]!);
      return answer(res, status, body);
    }
    handlePost(req, res, path, raw);
  };

  const sessionOrThrow = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`the Stripe fake has no checkout session ${id}`);
    return session;
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
    meterEventCalls,
    meterEvents,
    sessionLookups,
    priceLookups,
    customers,
    protocolErrors,
    archivePrice(id) {
      archivedPrices.add(id);
    },
    failNext(failure, count = 1) {
      for (let i = 0; i < count; i += 1) failures.push(failure);
    },
    session(id) {
      const session = sessions.get(id);
      return session && { ...session };
    },
    sessionIdFrom(url) {
      const id = /^https:\/\/checkout\.stripe\.com\/c\/pay\/(cs_test_\w+)$/.exec(url)?.[1];
      if (!id) throw new Error(`not a checkout URL of the Stripe fake: ${url}`);
      return id;
    },
    completeSession(id, { paid = true } = {}) {
      const session = sessionOrThrow(id);
      session.status = 'complete';
      session.payment_status = paid ? 'paid' : 'unpaid';
      if (session.mode === 'payment') session.payment_intent ??= newId('pi');
      else session.subscription ??= newId('sub');
      return { ...session };
    },
    completedSessionWebhook(id, secret, { eventId = newId('evt'), type = 'checkout.session.completed', at } = {}) {
      const session = sessionOrThrow(id);
      // Stripe sends neither event for a session the customer has not finished.
      if (session.status !== 'complete') throw new Error(`checkout session ${id} is not complete: call completeSession first`);
      const created = Math.floor((at?.getTime() ?? Date.now()) / 1000);
      return signed(checkoutSessionEvent(eventId, type, { ...session, metadata: { ...session.metadata } }, created), secret, at);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const metadataOf = (form: Form) =>
  Object.fromEntries(
    Object.entries(form)
      .map(([key, value]) => [/^metadata\[(\w+)\]$/.exec(key)?.[1], value] as const)
      .filter((entry): entry is readonly [string, string] => entry[0] !== undefined),
  );

function decoded(encodedId: string): string {
  try {
    return decodeURIComponent(encodedId);
  } catch {
    return encodedId;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
