import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Claims of a test account; its `sub` is the account id, which is also the login name. */
export interface TestAccountClaims {
  email?: string;
  /** A string is allowed on purpose: some providers send "true". */
  email_verified?: boolean | string;
  given_name?: string;
  family_name?: string;
}

export interface OidcTestProviderOptions {
  redirectUri: string;
  accounts?: Record<string, TestAccountClaims>;
  /** Reuse a port, e.g. to bring a closed provider back at the same issuer. Default: any free port. */
  port?: number;
  /** Default: a random one. Pass the old one when bringing a provider back. */
  clientSecret?: string;
  /**
   * false (oidc-provider's default, like many providers): the ID token carries only `sub`, profile
   * and email claims come from userinfo. true: they are in the ID token too, as Google does.
   */
  claimsInIdToken?: boolean;
}

export interface OidcTestProvider {
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
  setAccount(id: string, claims: TestAccountClaims): void;
  /** Closes the listener and every open connection, keep-alive ones included. */
  close(): Promise<void>;
}

/** A real OpenID provider (oidc-provider) on 127.0.0.1 with a login form that accepts any known account id. */
export async function startOidcTestProvider(options: OidcTestProviderOptions): Promise<OidcTestProvider> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const clientId = 'tenantkit-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const Provider = await quietly(loadProvider);
  const provider = quietly(() => new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [options.redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys: [signingKey()] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    conformIdTokenClaims: !options.claimsInIdToken,
    findAccount: (_ctx: unknown, id: string) => {
      const claims = accounts.get(id);
      return claims && { accountId: id, claims: () => ({ ...claims, sub: id }) };
    },
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = `<h1>${escape(out.error ?? 'error')}</h1><p>${escape(out.error_description ?? '')}</p>`;
    },
  }));

  const oidcCallback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/consent|\/abort)?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) return oidcCallback(req, res);
    interact(provider, accounts, req, res, match[2] ?? '').catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`interaction failed: ${String(error)}`);
    });
  });

  return {
    issuer,
    port,
    clientId,
    clientSecret,
    setAccount: (id, claims) => void accounts.set(id, claims),
    close: () => closeServer(server),
  };
}

let sharedSigningKey: object | undefined;

/**
 * One key per test process: a provider brought back at the same issuer keeps signing with the
 * key clients have cached, as a real provider does across restarts.
 */
function signingKey(): object {
  sharedSigningKey ??= {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: 'oidc-test-key',
    use: 'sig',
    alg: 'RS256',
  };
  return sharedSigningKey;
}

/** The slice of oidc-provider's API this harness uses (the package ships no types). */
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options: { mergeWithLastSubmission: boolean }): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
}
type ProviderConstructor = new (issuer: string, configuration: object) => Provider;
interface Interaction {
  uid: string;
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] } };
  params: { client_id: string };
  session?: { accountId: string };
  grantId?: string;
}
interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}

async function loadProvider(): Promise<ProviderConstructor> {
  // @ts-expect-error -- oidc-provider ships no type declarations; `Provider` above types what we use.
  const loaded = (await import('oidc-provider')) as { Provider: ProviderConstructor };
  return loaded.Provider;
}

/** The login and consent screens an end-user would see; "Cancel" aborts with access_denied. */
async function interact(provider: Provider, accounts: Map<string, TestAccountClaims>, req: IncomingMessage, res: ServerResponse, action: string) {
  const interaction = await provider.interactionDetails(req, res);
  const { uid, prompt } = interaction;
  if (action === '/abort') {
    const result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }
  if (action === '/login' && req.method === 'POST') {
    const login = new URLSearchParams(await readBody(req)).get('login') ?? '';
    if (accounts.has(login)) {
      return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    }
    return page(res, uid, `<p class="error">Unknown account ${escape(login)}</p>${loginForm(uid)}`);
  }
  if (action === '/consent' && req.method === 'POST' && prompt.name === 'consent') {
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId: interaction.session?.accountId ?? '', clientId: interaction.params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    const result = { consent: { grantId: await grant.save() } };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
  }
  if (action !== '' || req.method !== 'GET') return page(res, uid, '<p>Not found</p>', 404);
  const scopes = escape(prompt.details.missingOIDCScope?.join(' ') ?? '');
  const consentForm = `<p>Allow ${scopes}?</p><form method="post" action="/interaction/${uid}/consent"><input type="hidden" name="prompt" value="consent"><button>Continue</button></form>`;
  return page(res, uid, prompt.name === 'login' ? loginForm(uid) : consentForm);
}

function loginForm(uid: string): string {
  return `<form method="post" action="/interaction/${uid}/login"><input type="hidden" name="prompt" value="login"><input type="text" name="login"><button>Sign in</button></form>`;
}

function page(res: ServerResponse, uid: string, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><body>${body}<a href="/interaction/${uid}/abort">Cancel</a></body></html>`);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** oidc-provider prints development-mode notices (in-memory adapter, Node 20 runtime) on console: drop only those. */
function quietly<T>(run: () => T): T {
  const { warn, info } = console;
  const filter = (print: (...args: unknown[]) => void) => (...args: unknown[]) => {
    if (!String(args[0]).startsWith('oidc-provider ')) print(...args);
  };
  console.warn = filter(warn);
  console.info = filter(info);
  const restore = () => Object.assign(console, { warn, info });
  try {
    const result = run();
    if (result instanceof Promise) return result.finally(restore) as T;
    restore();
    return result;
  } catch (error) {
    restore();
    throw error;
  }
}

function closeServer(server: ReturnType<typeof createServer>): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('OIDC test provider did not close within 5 s')), 5_000);
    server.close((error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    });
    server.closeAllConnections();
  });
}
