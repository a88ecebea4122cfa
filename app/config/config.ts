import * as v from 'valibot';
import { randomBytes } from 'node:crypto';
import type { CreditPack } from '../../core/billing/credit-pack';
import { parseCreditPacks } from './ai-config';
import { OIDC_SETTINGS, parseOidcSettings, type OidcConfig } from './oidc-config';
import { STRIPE_SETTINGS, parseStripeSettings, type StripeConfig } from './stripe-config';
import { intIn, nonEmpty, origins, secret, url } from './setting-schemas';
import { describeUnknown, ignoredSettings, unknownSettings } from './unknown-settings';

/**
 * Every `APP_*` setting, parsed once into one typed, frozen object. Invalid input
 * stops startup with one message listing every bad or missing setting; secret values are never
 * echoed.
 */
export type Environment = 'dev' | 'beta' | 'prod';
export type EmailProviderName = 'stub' | 'postmark' | 'ses' | 'azure';

export interface AppConfig {
  environment: Environment;
  mode: 'b2c' | 'b2b';
  port: number;
  baseWebUrl: string;
  baseApiUrl: string;
  corsOrigins: readonly string[];
  /** The WebAuthn relying party: the host passkeys are scoped to, and the origins a browser may report. */
  webauthn: { rpId: string; origins: readonly string[] };
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  rateLimitStorageUri: string;
  /** Requests per minute each organization API key may make (APP_API_KEY_RATE_LIMIT). */
  apiKeyRateLimit: number;
  /** Redis key prefix for the BullMQ queues and the shared rate-limit counters. */
  redisKeyPrefix: string;
  /** Apply pending migrations at startup (PostgreSQL server); otherwise refuse to start with them pending. */
  migrateOnStart: boolean;
  /** How long startup waits for an unreachable APP_DATABASE_URL before giving up. */
  databaseStartupWaitSeconds: number;
  sessionPruneIntervalSeconds: number;
  trustedProxyHops: number;
  sessionCookieName: string;
  sessionCookieMaxAge: number;
  cronSecret: string;
  cronSessionRetentionDays: number;
  jwtSecretKey: string;
  idp: OidcConfig | undefined;
  /** Emailed sign-in links (`/auth/email-link*`); off, both routes answer 404. */
  emailLinkSignIn: boolean;
  email: EmailConfig;
  passwordHashCost: number;
  stripe: StripeConfig | undefined;
  /** Set with APP_OPENAI_API_KEY; unset, the copilot answers FEATURE_DISABLED. `baseUrl`: any OpenAI-compatible server. */
  openai: { apiKey: string; model: string; baseUrl: string | undefined } | undefined;
  /** The AI copilot's billing: the meter its overage is reported on, and the credit packs on sale. */
  ai: { meterEventName: string; creditPacks: readonly CreditPack[] };
  logLevel: string;
  /** Shown as the TOTP issuer and the email sender's display name. */
  appName: string;
  /**
   * AES-256 key for secrets at rest (TOTP), base64 of 32 bytes. Undefined only in dev when unset:
   * then the key kept under `dataDir` is used (generated on first start).
   */
  encryptionKey: string | undefined;
  /** Sent emails are deleted this many days after sending (their bodies at once). */
  emailRetentionDays: number;
  /** Audit events are deleted this many days after they occurred, by the session prune job. */
  auditRetentionDays: number;
  /** `auto`: human-readable lines in `dev` when stdout is a terminal, JSON lines otherwise. */
  logFormat: 'json' | 'pretty' | 'auto';
}

export type EmailConfig =
  | { provider: 'stub' }
  | { provider: 'postmark'; apiKey: string; senderAddress: string; senderName: string }
  | { provider: 'ses'; region: string; senderAddress: string; senderName: string }
  | { provider: 'azure'; connectionString: string; senderAddress: string };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type SecretSetting = 'APP_CRON_SECRET' | 'APP_JWT_SECRET_KEY';

type Env = Record<string, string | undefined>;

const rawSchema = v.object({
  APP_ENVIRONMENT: v.optional(v.picklist(['dev', 'beta', 'prod'], 'must be dev, beta or prod'), 'dev'),
  APP_MODE: v.optional(v.picklist(['b2c', 'b2b'], 'must be b2c or b2b'), 'b2c'),
  APP_PORT: v.optional(intIn(0, 65535), '8000'),
  APP_BASE_WEB_URL: v.optional(url),
  APP_BASE_API_URL: v.optional(url),
  APP_CORS_ORIGINS: v.optional(origins),
  APP_WEBAUTHN_RP_ID: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'must be a host name such as example.com'))),
  APP_WEBAUTHN_ORIGINS: v.optional(origins),
  APP_DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'))),
  APP_DATA_DIR: v.optional(nonEmpty, './.data'),
  APP_REDIS_URL: v.optional(v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'must be a redis:// URL'))),
  APP_RATE_LIMIT_STORAGE_URI: v.optional(
    v.pipe(v.string(), v.regex(/^(async\+)?(memory:\/\/|rediss?:\/\/)/, 'must be memory://, async+memory://, redis://… or async+redis://…')),
    'memory://',
  ),
  APP_API_KEY_RATE_LIMIT: v.optional(intIn(1, 1_000_000), '600'),
  APP_BULLMQ_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1..64 of A-Z a-z 0-9 _ . -')), 'tenantkit'),
  APP_MIGRATE_ON_START: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
  APP_DATABASE_STARTUP_WAIT_SECONDS: v.optional(intIn(0, 600), '10'),
  APP_SESSION_PRUNE_INTERVAL_SECONDS: v.optional(intIn(1, 86_400), '3600'),
  APP_TRUSTED_PROXY_HOPS: v.optional(intIn(0, 32), '1'),
  APP_SESSION_COOKIE_NAME: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a valid cookie name')), 'session_id'),
  APP_SESSION_COOKIE_MAX_AGE: v.optional(intIn(60, 31_536_000), '86400'),
  APP_CRON_SECRET: v.optional(secret),
  APP_CRON_SESSION_RETENTION_DAYS: v.optional(intIn(0, 3650), '7'),
  APP_JWT_SECRET_KEY: v.optional(secret),
  ...OIDC_SETTINGS,
  APP_EMAIL_LINK_SIGNIN: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'true'),
  APP_EMAIL_PROVIDER: v.optional(v.picklist(['stub', 'postmark', 'ses', 'azure'], 'must be stub, postmark, ses or azure')),
  APP_POSTMARK_API_KEY: v.optional(nonEmpty),
  APP_POSTMARK_SENDER_ADDRESS: v.optional(v.pipe(v.string(), v.email('must be an email address'))),
  APP_POSTMARK_SENDER_NAME: v.optional(nonEmpty),
  APP_SES_REGION: v.optional(nonEmpty),
  APP_SES_SENDER_ADDRESS: v.optional(v.pipe(v.string(), v.email('must be an email address'))),
  APP_SES_SENDER_NAME: v.optional(nonEmpty),
  APP_AZURE_CONNECTION_STRING: v.optional(v.pipe(v.string(), v.regex(/endpoint=.+;accesskey=.+/i, 'must be an Azure connection string'))),
  APP_AZURE_SENDER_ADDRESS: v.optional(v.pipe(v.string(), v.email('must be an email address'))),
  APP_PASSWORD_HASH_COST: v.optional(intIn(4, 15), '11'),
  ...STRIPE_SETTINGS,
  APP_NAME: v.optional(v.pipe(nonEmpty, v.maxLength(100, 'must be at most 100 characters')), 'tenantkit'),
  APP_ENCRYPTION_KEY: v.optional(
    v.pipe(
      v.string(),
      v.check((key: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(key.trim()) && Buffer.from(key.trim(), 'base64').length === 32, 'must be 32 bytes, base64-encoded'),
    ),
  ),
  APP_EMAIL_RETENTION_DAYS: v.optional(intIn(0, 3650), '7'),
  APP_AUDIT_RETENTION_DAYS: v.optional(intIn(1, 3650), '365'),
  APP_OPENAI_API_KEY: v.optional(nonEmpty),
  APP_OPENAI_MODEL: v.optional(v.pipe(nonEmpty, v.maxLength(100, 'must be at most 100 characters')), 'gpt-5-mini'),
  APP_OPENAI_BASE_URL: v.optional(url),
  APP_STRIPE_AI_METER_EVENT: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be 1..100 of A-Z a-z 0-9 _ . : -')), 'ai_tokens'),
  APP_AI_CREDIT_PACKS: v.optional(v.string()),
  APP_LOG_LEVEL: v.optional(
    v.picklist(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], 'must be trace, debug, info, warn, error, fatal or silent'),
    'info',
  ),
  APP_LOG_FORMAT: v.optional(v.picklist(['json', 'pretty', 'auto'], 'must be json, pretty or auto'), 'auto'),
  APP_IGNORE_SETTINGS: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_, ]*$/, 'must be a comma-separated list of variable names'))),
});

type Raw = v.InferOutput<typeof rawSchema>;

/** Every setting this file reads; `.env.example` and docs/configuration.md must name each one. */
export const SETTING_NAMES: readonly string[] = Object.keys(rawSchema.entries);

export interface LoadedConfig {
  config: AppConfig;
  /** Non-fatal notices for the log, e.g. secrets generated for this dev process. */
  warnings: string[];
}

/**
 * An `APP_*` variable that is no setting is most likely a misspelled one, whose feature is then
 * silently off: a warning in `dev`, a problem that stops startup elsewhere, unless the name is
 * listed in `APP_IGNORE_SETTINGS` (a variable meant for something else sharing the prefix).
 */
function unknownSettingNotes(appEnv: Env): { warnings: string[]; problems: string[] } {
  const notes = unknownSettings(appEnv, SETTING_NAMES, ignoredSettings(appEnv.APP_IGNORE_SETTINGS)).map(describeUnknown);
  if ((appEnv.APP_ENVIRONMENT ?? 'dev') === 'dev') return { warnings: notes, problems: [] };
  return { warnings: [], problems: notes.map((note) => `${note} (list it in APP_IGNORE_SETTINGS to start anyway)`) };
}

/** Parses `env` (normally `process.env`). Throws ConfigError listing every problem. */
export function loadConfig(env: Env): LoadedConfig {
  const appEnv = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key.startsWith('APP_') && value !== undefined && value !== ''),
  );
  const unknown = unknownSettingNotes(appEnv);
  const parsed = v.safeParse(rawSchema, appEnv, { abortEarly: false });
  if (parsed.success) {
    let loaded: LoadedConfig;
    try {
      loaded = build(parsed.output);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError([...error.problems, ...unknown.problems]);
      throw error;
    }
    if (unknown.problems.length > 0) throw new ConfigError(unknown.problems);
    return { config: loaded.config, warnings: [...unknown.warnings, ...loaded.warnings] };
  }
  const badKeys = new Set(parsed.issues.map((issue) => v.getDotPath(issue) ?? 'configuration'));
  const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'configuration'} ${issue.message}`);
  // One message lists every problem: also check what is missing, judged on the settings that parsed.
  const rest = v.safeParse(rawSchema, Object.fromEntries(Object.entries(appEnv).filter(([key]) => !badKeys.has(key))));
  if (rest.success) {
    try {
      build(rest.output);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems.filter((problem) => !badKeys.has(problem.split(' ')[0]!)));
    }
  }
  throw new ConfigError([...problems, ...unknown.problems]);
}

function build(raw: Raw): LoadedConfig {
  const problems: string[] = [];
  const warnings: string[] = [];
  const dev = raw.APP_ENVIRONMENT === 'dev';
  const require = <T>(key: keyof Raw, value: T | undefined): T | undefined => {
    if (value === undefined) problems.push(`${key} is required`);
    return value;
  };
  const devSecret = (key: SecretSetting, value: string | undefined): string => {
    if (value !== undefined) return value;
    if (!dev) {
      problems.push(`${key} is required outside dev`);
      return '';
    }
    warnings.push(`${key} is unset: generated a random value for this process only`);
    return randomBytes(32).toString('base64url');
  };

  const baseWebUrl = dev ? (raw.APP_BASE_WEB_URL ?? 'http://localhost:5173') : (require('APP_BASE_WEB_URL', raw.APP_BASE_WEB_URL) ?? '');
  // In dev the API's own address follows APP_PORT, so pagination links and the OpenAPI server
  // URL point back at this process.
  const devApiUrl = `http://localhost:${raw.APP_PORT === 0 ? 8000 : raw.APP_PORT}`;
  const baseApiUrl = dev ? (raw.APP_BASE_API_URL ?? devApiUrl) : (require('APP_BASE_API_URL', raw.APP_BASE_API_URL) ?? '');

  const email = emailConfig(raw, dev, problems);
  const idp = parseOidcSettings(raw);
  if ('problems' in idp) problems.push(...idp.problems);
  const stripe = parseStripeSettings(raw);
  if ('problems' in stripe) problems.push(...stripe.problems);

  const creditPacks = parseCreditPacks(raw.APP_AI_CREDIT_PACKS);
  if ('problems' in creditPacks) problems.push(...creditPacks.problems);

  const cronSecret = devSecret('APP_CRON_SECRET', raw.APP_CRON_SECRET);
  const jwtSecretKey = devSecret('APP_JWT_SECRET_KEY', raw.APP_JWT_SECRET_KEY);
  // Unlike the other secrets, a per-process key would make every stored TOTP secret unreadable
  // after a restart: in dev the key is kept under APP_DATA_DIR instead (app/config/encryption-key.ts).
  if (!dev && raw.APP_ENCRYPTION_KEY === undefined) problems.push('APP_ENCRYPTION_KEY is required outside dev');
  const webauthn = webauthnConfig(raw, baseWebUrl, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  const config: AppConfig = {
    environment: raw.APP_ENVIRONMENT,
    mode: raw.APP_MODE,
    port: raw.APP_PORT,
    baseWebUrl: stripSlash(baseWebUrl),
    baseApiUrl: stripSlash(baseApiUrl),
    corsOrigins: corsOrigins(raw, baseWebUrl),
    webauthn,
    databaseUrl: raw.APP_DATABASE_URL,
    dataDir: raw.APP_DATA_DIR,
    redisUrl: raw.APP_REDIS_URL,
    rateLimitStorageUri: raw.APP_RATE_LIMIT_STORAGE_URI,
    apiKeyRateLimit: raw.APP_API_KEY_RATE_LIMIT,
    redisKeyPrefix: raw.APP_BULLMQ_PREFIX,
    migrateOnStart: raw.APP_MIGRATE_ON_START === 'true',
    databaseStartupWaitSeconds: raw.APP_DATABASE_STARTUP_WAIT_SECONDS,
    sessionPruneIntervalSeconds: raw.APP_SESSION_PRUNE_INTERVAL_SECONDS,
    trustedProxyHops: raw.APP_TRUSTED_PROXY_HOPS,
    sessionCookieName: raw.APP_SESSION_COOKIE_NAME,
    sessionCookieMaxAge: raw.APP_SESSION_COOKIE_MAX_AGE,
    cronSecret,
    cronSessionRetentionDays: raw.APP_CRON_SESSION_RETENTION_DAYS,
    jwtSecretKey,
    idp: 'value' in idp ? idp.value : undefined,
    emailLinkSignIn: raw.APP_EMAIL_LINK_SIGNIN === 'true',
    email,
    passwordHashCost: raw.APP_PASSWORD_HASH_COST,
    stripe: 'value' in stripe ? stripe.value : undefined,
    openai: raw.APP_OPENAI_API_KEY ? { apiKey: raw.APP_OPENAI_API_KEY, model: raw.APP_OPENAI_MODEL, baseUrl: raw.APP_OPENAI_BASE_URL } : undefined,
    ai: { meterEventName: raw.APP_STRIPE_AI_METER_EVENT, creditPacks: 'packs' in creditPacks ? creditPacks.packs : [] },
    logLevel: raw.APP_LOG_LEVEL,
    appName: raw.APP_NAME,
    encryptionKey: raw.APP_ENCRYPTION_KEY?.trim(),
    emailRetentionDays: raw.APP_EMAIL_RETENTION_DAYS,
    auditRetentionDays: raw.APP_AUDIT_RETENTION_DAYS,
    logFormat: raw.APP_LOG_FORMAT,
  };
  return { config: deepFreeze(config), warnings };
}

function emailConfig(raw: Raw, dev: boolean, problems: string[]): EmailConfig {
  const provider = raw.APP_EMAIL_PROVIDER ?? (dev ? 'stub' : undefined);
  const need = (key: keyof Raw): string => {
    const value = raw[key];
    if (typeof value !== 'string') {
      problems.push(`${key} is required when APP_EMAIL_PROVIDER=${provider}`);
      return '';
    }
    return value;
  };
  switch (provider) {
    case undefined:
      problems.push('APP_EMAIL_PROVIDER is required outside dev');
      return { provider: 'stub' };
    case 'stub':
      // The stub writes every email, live reset and invitation links included, to the log.
      if (raw.APP_ENVIRONMENT === 'prod') problems.push('APP_EMAIL_PROVIDER=stub is refused in prod: it writes live links to the log');
      return { provider: 'stub' };
    case 'postmark':
      return {
        provider,
        apiKey: need('APP_POSTMARK_API_KEY'),
        senderAddress: need('APP_POSTMARK_SENDER_ADDRESS'),
        senderName: need('APP_POSTMARK_SENDER_NAME'),
      };
    case 'ses':
      return {
        provider,
        region: need('APP_SES_REGION'),
        senderAddress: need('APP_SES_SENDER_ADDRESS'),
        senderName: need('APP_SES_SENDER_NAME'),
      };
    case 'azure':
      return { provider, connectionString: need('APP_AZURE_CONNECTION_STRING'), senderAddress: need('APP_AZURE_SENDER_ADDRESS') };
  }
}

const DEV_ORIGINS = ['http://localhost:5173', 'http://localhost:4173'];

/**
 * The rp id defaults to the host of APP_BASE_WEB_URL and the origins to its origin. A browser
 * refuses a ceremony whose rp id is not the page's host or a parent domain of it, so every origin
 * must sit at or under the rp id: checked here rather than found out at the first sign-in.
 */
function webauthnConfig(raw: Raw, baseWebUrl: string, problems: string[]): AppConfig['webauthn'] {
  const rpId = raw.APP_WEBAUTHN_RP_ID ?? (URL.canParse(baseWebUrl) ? new URL(baseWebUrl).hostname : '');
  const origins = raw.APP_WEBAUTHN_ORIGINS
    ? raw.APP_WEBAUTHN_ORIGINS.split(',').map((o) => stripSlash(o.trim())).filter((o) => o.length > 0)
    : URL.canParse(baseWebUrl) ? [new URL(baseWebUrl).origin] : [];
  for (const origin of origins) {
    const host = new URL(origin).hostname;
    if (host !== rpId && !host.endsWith(`.${rpId}`)) problems.push(`APP_WEBAUTHN_ORIGINS ${origin} is not on the rp id ${rpId} (APP_WEBAUTHN_RP_ID) or a subdomain of it`);
  }
  return { rpId, origins };
}

function corsOrigins(raw: Raw, baseWebUrl: string): string[] {
  if (raw.APP_CORS_ORIGINS !== undefined) {
    return raw.APP_CORS_ORIGINS.split(',').map((o) => o.trim()).filter((o) => o.length > 0).map(stripSlash);
  }
  if (raw.APP_ENVIRONMENT === 'dev') return DEV_ORIGINS;
  return [new URL(baseWebUrl).origin];
}

const stripSlash = (value: string) => value.replace(/\/+$/, '');

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
